import { html, type PropertyValues } from 'lit'
import { ContextProvider } from '../shared/context.ts'
import { VkElement } from '../shared/vk-element.ts'
import { stringsContext, type StringsContextValue } from '../shared/strings/index.ts'
import { styles } from './strings-provider.styles.ts'

/**
 * @summary Replaces the visible strings of every venuekit element inside it, and sets their locale.
 *
 * @slot - The elements whose strings this provides.
 *
 * Set `strings` to `{ comments?, room?, moderation? }` with any keys to replace. An element's own
 * `strings` property wins over the provider. `locale` picks the built-in language (`en`, `es`) and the
 * locale used by Intl for numbers and times.
 */
export class VkStringsProvider extends VkElement {
  static override styles = styles
  static override properties = {
    locale: { type: String, reflect: true },
    strings: { attribute: false },
  }

  declare locale: string
  declare strings: StringsContextValue['overrides']

  #provider = new ContextProvider<StringsContextValue>(this, stringsContext, { locale: '', overrides: {} })

  constructor() {
    super()
    this.locale = ''
    this.strings = {}
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('locale') || changed.has('strings')) {
      this.#provider.setValue({ locale: this.locale, overrides: this.strings ?? {} })
    }
  }

  override render() {
    return html`<slot></slot>`
  }
}
