/**
 * Binds an element to a nanostores store that depends on its attributes: `select()` runs before every
 * update and returns the store to show (or null: none). The factories on `Venuekit` return the same
 * instance for the same arguments, so an unchanged attribute keeps the same subscription; a changed one
 * swaps it. The subscription ends when the element leaves the page (the store stops when nobody listens).
 * This is why elements do not use `@nanostores/lit`'s `StoreController`, which binds one store fixed at
 * construction (docs/ARCHITECTURE.md, Elements).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit'

/** The part of a nanostores atom this needs (`ReadableAtom`). */
export interface Subscribable<T> {
  get(): T
  subscribe(cb: (value: T) => void): () => void
}

export class StoreBinding<T> implements ReactiveController {
  // Undefined until first set (as null or false): each is read only as "none" or "not".
  declare private store: Subscribable<T> | null | undefined
  declare private off: (() => void) | null | undefined
  declare private connected: boolean | undefined

  declare private readonly host: ReactiveControllerHost
  declare private readonly select: () => Subscribable<T> | null | undefined

  constructor(host: ReactiveControllerHost, select: () => Subscribable<T> | null | undefined) {
    this.host = host
    this.select = select
    host.addController(this)
  }

  /** The store's current value, or undefined when there is no store. */
  get value(): T | undefined {
    return this.store?.get()
  }

  hostConnected() {
    this.connected = true
    this.sync()
  }

  hostUpdate() {
    this.sync()
  }

  hostDisconnected() {
    this.connected = false
    this.off?.()
    this.off = null
    this.store = null
  }

  /** Subscribes to the selected store when it differs from the current one. */
  sync() {
    if (!this.connected) return
    const next = this.select() ?? null
    if (next === this.store && (this.off || !next)) return
    this.off?.()
    this.off = null
    this.store = next
    if (!next) return
    let first = true
    this.off = next.subscribe(() => {
      // The first call is synchronous with subscribe: the render in progress reads the value itself.
      if (first) return
      this.host.requestUpdate()
    })
    first = false
  }
}
