/**
 * Reads one strings slice for an element: built-in strings for the locale, then the nearest
 * `<vk-strings-provider>` overrides, then the element's own `strings` property (the property wins).
 */
import { ContextConsumer } from './context.ts'
import type { ReactiveController, ReactiveElement } from 'lit'
import { baseStrings, stringsContext, type Slice, type StringSlices, type StringsContextValue } from './strings/index.ts'
import { formatMessage, type Params } from './format.ts'

export interface StringsHost<S extends Slice> extends ReactiveElement {
  strings?: Partial<StringSlices[S]> | null
  locale?: string | null
}

export class StringsController<S extends Slice> implements ReactiveController {
  private provided: StringsContextValue | undefined

  constructor(
    private readonly host: StringsHost<S>,
    private readonly slice: S,
    /** Extra overrides that sit between the provider and the property (e.g. `roomStrings`). */
    private readonly extra: () => Partial<StringSlices[S]> | null | undefined = () => undefined,
    /** The element's own overrides of this slice (last, they win); the host's `strings` by default. */
    private readonly own: () => Partial<StringSlices[S]> | null | undefined = () => host.strings,
  ) {
    host.addController(this)
    new ContextConsumer(host, stringsContext, (v) => {
      this.provided = v
      host.requestUpdate()
    })
  }

  hostConnected() {}

  get locale(): string {
    return (
      this.host.locale ||
      this.provided?.locale ||
      (typeof document !== 'undefined' && document.documentElement.lang) ||
      (typeof navigator !== 'undefined' && navigator.language) ||
      'en'
    )
  }

  /** The merged slice. */
  get all(): StringSlices[S] {
    return {
      ...baseStrings(this.locale)[this.slice],
      ...(this.provided?.overrides[this.slice] ?? {}),
      ...(this.extra() ?? {}),
      ...(this.own() ?? {}),
    } as StringSlices[S]
  }

  /**
   * A formatted string: placeholders, numbers and plurals for the locale. Always text. Reads the key
   * from the layers in the order `all` merges them (the last layer that has the key wins), without
   * building the merged slice: a card asks for a dozen strings per render.
   */
  t(key: keyof StringSlices[S] & string, params?: Params): string {
    const locale = this.locale
    const layers = [this.own(), this.extra(), this.provided?.overrides[this.slice], baseStrings(locale)[this.slice]]
    let template: unknown = key
    for (const layer of layers)
      if (layer && Object.prototype.hasOwnProperty.call(layer, key)) {
        template = (layer as Record<string, unknown>)[key] ?? key
        break
      }
    return formatMessage(String(template), params, locale)
  }
}
