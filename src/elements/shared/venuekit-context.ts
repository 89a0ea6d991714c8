/**
 * How an element finds the page's venuekit context: the nearest `<vk-platform-provider>` above it
 * (the community context protocol), otherwise the page's registered context (`getVenuekit()`, set up by the script tag
 * or by the app). Elements that need a client render nothing without one (§9.3).
 */
import { ContextConsumer, createContext } from './context.ts'
import type { ReactiveController, ReactiveElement } from 'lit'
import { getVenuekit, onVenuekitChange, type Venuekit } from '../../stores/index.ts'

/** A string key, so two copies of venuekit on one page share the same context. */
export const venuekitContext = createContext<Venuekit | null>('venuekit-context')

export class VenuekitController implements ReactiveController {
  declare private provided: Venuekit | null | undefined
  declare private unwatch: (() => void) | null | undefined
  declare private readonly host: ReactiveElement
  declare private readonly onChange: (vk: Venuekit | null) => void
  constructor(host: ReactiveElement, onChange: (vk: Venuekit | null) => void = () => {}) {
    this.host = host
    this.onChange = onChange
    host.addController(this)
    new ContextConsumer(host, venuekitContext, (v) => {
      this.provided = v
      this.onChange(this.value)
      host.requestUpdate()
    })
  }
  hostConnected() {
    // A page that configures venuekit after this element connected (the script tag's `configure()`, an
    // app creating its context late): re-render with it.
    this.unwatch = onVenuekitChange(() => {
      if (this.provided != null) return
      this.onChange(this.value)
      this.host.requestUpdate()
    })
    this.onChange(this.value)
  }
  hostDisconnected() {
    this.unwatch?.()
    this.unwatch = null
  }
  /** True when a `<vk-platform-provider>` above the element provides the context (§4.4 rule 5: the take prompt). */
  get fromProvider(): boolean {
    return this.provided != null
  }
  /** The context in use, or null when the page has none. */
  get value(): Venuekit | null {
    return this.provided ?? getVenuekit()
  }
}
