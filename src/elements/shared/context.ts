/**
 * The community context protocol (https://github.com/webcomponents-cg/community-protocols, "context"),
 * as much of it as venuekit's two contexts use: a consumer dispatches `context-request` (bubbling,
 * composed) with `subscribe: true`; the nearest provider of that context stops it and calls back with
 * the value and an unsubscribe function, and again on every change. A provider that connects inside
 * another announces itself with `context-provider`, and the outer one re-sends its subscribers'
 * requests, so they move to the nearer provider.
 *
 * It speaks the same events as `@lit/context`, so a venue's own `@lit/context` provider or consumer of
 * the same key works with venuekit's, at a third of the script's bytes.
 */
import type { ReactiveController, ReactiveElement } from 'lit'

/** A context key. A string, so two copies of venuekit on one page share it. */
export type Context<T> = string & { __context__?: T }
export const createContext = <T>(key: string) => key as Context<T>

type Callback = (value: unknown, unsubscribe?: () => void) => void

/** `context-request` and `context-provider` carry the same fields; a provider event has no callback. */
class ContextEvent extends Event {
  declare readonly context: string
  declare readonly contextTarget: Element
  declare readonly callback?: Callback
  declare readonly subscribe?: boolean
  constructor(type: string, context: string, contextTarget: Element, callback?: Callback, subscribe?: boolean) {
    super(type, { bubbles: true, composed: true })
    this.context = context
    this.contextTarget = contextTarget
    this.callback = callback
    this.subscribe = subscribe
  }
}

/** Asks for a context when the host connects, follows its changes, and lets go when the host leaves. */
export class ContextConsumer<T> implements ReactiveController {
  declare private unsubscribe?: () => void
  declare private readonly host: ReactiveElement
  declare private readonly context: Context<T>
  declare private readonly onValue: (value: T) => void
  constructor(host: ReactiveElement, context: Context<T>, onValue: (value: T) => void) {
    this.host = host
    this.context = context
    this.onValue = onValue
    host.addController(this)
  }
  hostConnected() {
    this.host.dispatchEvent(
      new ContextEvent(
        'context-request',
        this.context,
        this.host,
        (value, unsubscribe) => {
          // Another (nearer) provider answered: leave the one before.
          if (this.unsubscribe !== unsubscribe) this.unsubscribe?.()
          this.unsubscribe = unsubscribe
          this.onValue(value as T)
        },
        true,
      ),
    )
  }
  hostDisconnected() {
    this.unsubscribe?.()
    this.unsubscribe = undefined
  }
}

/** Answers its descendants' requests for one context, and calls its subscribers back on each new value. */
export class ContextProvider<T> implements ReactiveController {
  private readonly subscribers = new Map<Callback, [Element, () => void]>()
  declare private readonly host: ReactiveElement
  declare private readonly context: Context<T>
  declare private value: T
  constructor(host: ReactiveElement, context: Context<T>, value: T) {
    this.host = host
    this.context = context
    this.value = value
    /** The element that asked, when the event asks for this context from below the host. */
    const from = (e: Event) => {
      const ev = e as ContextEvent
      const target = (ev.contextTarget ?? e.composedPath()[0]) as Element
      if (ev.context !== this.context || target === host) return null
      e.stopPropagation()
      return target
    }
    host.addEventListener('context-request', (e: Event) => {
      const target = from(e)
      const { callback, subscribe } = e as ContextEvent
      if (!target || !callback) return
      if (!subscribe) return callback(this.value)
      if (!this.subscribers.has(callback)) this.subscribers.set(callback, [target, () => this.subscribers.delete(callback)])
      callback(this.value, this.subscribers.get(callback)![1])
    })
    host.addEventListener('context-provider', (e: Event) => {
      if (!from(e)) return
      for (const [callback, [target]] of this.subscribers) target.dispatchEvent(new ContextEvent('context-request', context, target, callback, true))
    })
    host.addController(this)
  }
  hostConnected() {
    this.host.dispatchEvent(new ContextEvent('context-provider', this.context, this.host))
  }
  setValue(value: T) {
    if (Object.is(value, this.value)) return
    this.value = value
    for (const [callback, [, unsubscribe]] of this.subscribers) callback(value, unsubscribe)
  }
}
