/**
 * Keyboard focus around actions that take a request.
 *
 * - `busy(pending)` on a button: while its action runs the button is `aria-disabled="true"` and
 *   `aria-busy="true"` instead of `disabled`, and every activation (click, Enter, Space, a form's submit)
 *   is ignored until it is done. A `disabled` button that has focus drops it to the page's body, and a
 *   keyboard or screen-reader user loses their place; an aria-disabled one keeps it.
 * - `focusLost()`: nothing inside the page has focus (the body has it), e.g. after the focused control
 *   left the DOM. Elements move focus on purpose only then, or while focus is still inside them.
 * - `loadMoreAndFocus(button, v)`: Load more, then focus on the first newly loaded row.
 * - `retryAndFocus(button, retry)`: Retry keeps the reader's place while the error state is swapped out.
 */
import { nothing } from 'lit'
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js'

/** Stops an activation of a button that is `aria-disabled="true"` (runs first: a capturing listener on the button). */
const ignoreWhileDisabled = (e: Event) => {
  if ((e.currentTarget as Element).getAttribute('aria-disabled') !== 'true') return
  e.preventDefault()
  e.stopImmediatePropagation()
}

class BusyDirective extends Directive {
  /** The element its click guard is on (none yet: undefined). */
  declare private bound: Element | undefined

  constructor(part: PartInfo) {
    super(part)
    if (part.type !== PartType.ELEMENT) throw new Error('busy() is for elements')
  }

  render(_disabled: boolean, _busy?: boolean) {
    return nothing
  }

  override update(part: ElementPart, [disabled, busy = disabled]: [boolean, boolean?]) {
    const el = part.element
    if (this.bound !== el) {
      el.addEventListener('click', ignoreWhileDisabled, true)
      this.bound = el
    }
    if (disabled) el.setAttribute('aria-disabled', 'true')
    else el.removeAttribute('aria-disabled')
    el.setAttribute('aria-busy', busy ? 'true' : 'false')
    return nothing
  }
}

/**
 * `<button ${busy(pending)}>`: unavailable while `pending` (aria-disabled, aria-busy, activations ignored)
 * but still focusable, so focus stays where the reader left it. Style it with `[aria-disabled='true']`.
 * `busy(unavailable, pending)` when a button can be unavailable without being busy (aria-busy follows `pending`).
 */
export const busy = directive(BusyDirective)

/** Nothing on the page has focus but the body (the focused control left the DOM, or nothing was focused). */
export const focusLost = () => {
  const a = document.activeElement
  return !a || a === document.body
}

/**
 * Whether focus is inside `host`'s shadow root, or lost to the body: then an element that just removed or
 * swapped the focused control may move focus on purpose. Focus the reader put elsewhere is left alone.
 */
export const mayMoveFocus = (host: Element) => focusLost() || !!host.shadowRoot?.activeElement

/**
 * Load more from a list's button, then put focus on the first newly loaded row (`[part~="row"]`, or the
 * `part` given, in the button's shadow root; made focusable with `tabindex="-1"` when it is not), when focus is still on the
 * button or was lost. The host's `updateComplete` is awaited so the new rows are on the page.
 */
export async function loadMoreAndFocus(button: HTMLElement, v: { loadMore(): unknown }, part = 'row') {
  const root = button.getRootNode() as ShadowRoot | Document
  const rows = () => [...root.querySelectorAll<HTMLElement>(`[part~="${part}"]`)]
  const before = new Set(rows())
  await v.loadMore()
  const host = (root as ShadowRoot).host as (Element & { updateComplete?: Promise<unknown> }) | undefined
  await host?.updateComplete
  if ((root as ShadowRoot).activeElement !== button && !focusLost()) return
  const fresh = rows().find((r) => !before.has(r))
  if (!fresh) return
  if (!fresh.hasAttribute('tabindex')) fresh.tabIndex = -1
  fresh.focus()
}

/**
 * Retry from an error state's button, keeping the reader's place. The button leaves the page as the
 * element re-reads, which drops focus to the body; while it is lost, focus follows what replaces it: the
 * loading skeleton, then the first row (or item, market, verdict), the empty state or, when the read
 * failed again, the new Retry (made focusable with `tabindex="-1"` when they are not), in the region the
 * error stood in. Focus the reader puts elsewhere is left alone.
 */
export function retryAndFocus(button: HTMLElement, retry: () => unknown) {
  const root = button.getRootNode() as ShadowRoot
  // The region the error state stands in (a rail's Retry refocuses in that rail), while it is on the page.
  const region = button.parentElement!.parentElement ?? root
  const watch = new MutationObserver(() => {
    const to = (region.isConnected ? region : root).querySelector<HTMLElement>('[part~="loading"],[part~="row"],[part~="item"],[part~="market"],[part~="verdict"],[part~="empty"],[part~="retry"]')
    const loading = !!to?.matches('[part~="loading"]')
    if (focusLost() && to) {
      if (!to.hasAttribute('tabindex')) to.tabIndex = -1
      to.focus()
    }
    // Done once the read has settled, or once the reader has put focus somewhere else.
    if (!loading || root.activeElement !== to) watch.disconnect()
  })
  watch.observe(root, { childList: true, subtree: true })
  retry()
}
