/**
 * Reads one strings slice for an element: built-in strings for the locale, then the nearest
 * `<vk-strings-provider>` overrides, then the element's own `strings` property (the property wins).
 */
import { ContextConsumer } from './context.ts'
import type { ReactiveElement } from 'lit'
import { baseStrings, LOCALES, stringsContext, type Slice, type StringSlices, type StringsContextValue } from './strings/index.ts'
import { formatMessage, type Params } from './format.ts'

export interface StringsHost<S extends Slice> extends ReactiveElement {
  strings?: Partial<StringSlices[S]> | null
  locale?: string | null
}

/** Not a controller of its host: its context consumer is (it follows the provider); this only reads. */
export class StringsController<S extends Slice> {
  declare private provided: StringsContextValue | undefined
  declare private readonly host: StringsHost<S>
  declare private readonly slice: S
  /** Extra overrides that sit between the provider and the property (e.g. `roomStrings`). */
  declare private readonly extra: () => Partial<StringSlices[S]> | null | undefined
  /** The element's own overrides of this slice (last, they win); the host's `strings` by default. */
  declare private readonly own: () => Partial<StringSlices[S]> | null | undefined

  constructor(
    host: StringsHost<S>,
    slice: S,
    extra: () => Partial<StringSlices[S]> | null | undefined = () => undefined,
    own: () => Partial<StringSlices[S]> | null | undefined = () => host.strings,
  ) {
    this.host = host
    this.slice = slice
    this.extra = extra
    this.own = own
    new ContextConsumer(host, stringsContext, (v) => {
      this.provided = v
      host.requestUpdate()
    })
  }

  get locale(): string {
    return (
      this.host.locale ||
      this.provided?.locale ||
      (typeof document !== 'undefined' && document.documentElement.lang) ||
      (typeof navigator !== 'undefined' && navigator.language) ||
      'en'
    )
  }

  /**
   * The slice's layers, the winner first: the element's own overrides, the extra ones, the provider's, the built-in
   * strings for the locale, then English (a key a registered locale lacks reads in English, never as its name).
   */
  #layers(locale: string) {
    return [this.own(), this.extra(), this.provided?.overrides[this.slice], baseStrings(locale)[this.slice], LOCALES.en[this.slice]] as (Partial<StringSlices[S]> | null | undefined)[]
  }

  /** The merged slice. */
  get all(): StringSlices[S] {
    return Object.assign({}, ...this.#layers(this.locale).reverse()) as StringSlices[S]
  }

  /**
   * A formatted string: placeholders, numbers and plurals for the locale. Always text. Reads the key
   * from the layers in the order `all` merges them (the last layer that has the key wins), without
   * building the merged slice: a card asks for a dozen strings per render.
   */
  t(key: keyof StringSlices[S] & string, params?: Params): string {
    const locale = this.locale
    let template: unknown = key
    let from: unknown
    for (const layer of this.#layers(locale))
      if (layer && Object.hasOwn(layer, key)) {
        template = (layer as Record<string, unknown>)[key] ?? key
        from = layer
        break
      }
    // An English string (a locale without its own strings, or a key it lacks) takes English plural forms: Japanese
    // has only `other`, which would read "1 takes". Numbers still follow the locale.
    return formatMessage(String(template), params, locale, from === LOCALES.en[this.slice] ? 'en' : locale)
  }
}
