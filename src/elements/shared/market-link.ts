/** A market's title as a button that reads as a link (style it with `marketLinkStyles`): the feeds, the rail, the room, the card. */
import { html } from 'lit'
import type { VkElement } from './vk-element.ts'

/** Part `market`; pressing it emits `vk-open-market` with the market's id from `host`. */
export const marketLink = (host: VkElement, marketId: string, title: unknown) =>
  html`<button type="button" part="market" class="market" dir="auto" @click=${() => host.emit('vk-open-market', { marketId })}>${title}</button>`
