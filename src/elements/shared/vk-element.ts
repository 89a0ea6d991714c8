/**
 * The one base class of every venuekit element.
 * - `emit()` dispatches typed `vk-*` events that bubble and cross shadow roots (composed).
 * - `define()` is safe to call twice, so the script bundle and the ESM build can share a page.
 */
import { LitElement } from 'lit'
import type { VkEventMap } from './events.ts'

export class VkElement extends LitElement {
  /** Defines `tag` for this class unless something already defined it. Returns the class in use. */
  static define(tag: string, ctor: CustomElementConstructor = this): CustomElementConstructor {
    const existing = customElements.get(tag)
    if (existing) return existing
    customElements.define(tag, ctor)
    return ctor
  }

  /** Dispatches a typed `vk-*` event; returns false when a listener called `preventDefault()`. */
  emit<K extends keyof VkEventMap>(
    name: K,
    ...[detail, opts]: VkEventMap[K] extends CustomEvent<infer D> ? (undefined extends D ? [D?, EventInit?] : [D, EventInit?]) : never
  ): boolean {
    const event = new CustomEvent(name, { bubbles: true, composed: true, cancelable: true, ...(opts ?? {}), detail })
    return this.dispatchEvent(event)
  }
}
