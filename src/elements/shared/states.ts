/**
 * The common states of a venuekit element, one look everywhere: a loading skeleton with an accessible
 * busy state, an empty state, and an error state with a Retry button. Parts: `loading`, `empty`,
 * `error`, `retry`. Add `stateStyles` to the element's styles.
 */
import { css, html, nothing } from 'lit'
import { busy, loadMoreAndFocus, retryAndFocus } from './pending.ts'

/** A skeleton of `rows` grey bars, announced as busy with `label` (e.g. 'Loading…'). */
export function loadingState(label: string, rows = 3) {
  return html`<div part="loading" class="vk-loading" role="status" aria-busy="true">
    <span class="vk-visually-hidden">${label}</span>
    ${Array.from({ length: rows }, () => html`<div class="vk-skeleton" aria-hidden="true"><span></span><span></span></div>`)}
  </div>`
}

export function emptyState(text: string) {
  return html`<p part="empty" class="vk-empty">${text}</p>`
}

/**
 * The error sentence and a Retry button (`role="alert"` so it is announced). Retry keeps focus: `press`
 * runs it, `retryAndFocus` unless told otherwise.
 */
export function errorState(text: string, retryLabel: string, retry: () => unknown, press = retryAndFocus) {
  return html`<div part="error" class="vk-error" role="alert">
    <p>${text}</p>
    <button type="button" part="retry" class="vk-button" @click=${(e: Event) => press(e.currentTarget as HTMLElement, retry)}>${retryLabel}</button>
  </div>`
}

/** What a paged list store gives (threads, feeds). */
export interface PagedValue {
  loading: boolean
  error: unknown
  /** Set when `error` is a later page's (Retry loads that page again); otherwise Retry re-reads the first page. */
  loadMoreError?: unknown
  hasMore: boolean
  loadingMore?: boolean
  loadMore(): unknown
  refresh(): unknown
}
export interface PagedStrings {
  loading: string
  error: string
  retry: string
  empty: string
  loadMore: string
  loadingMore: string
}

/** Retry for a paged value: a failed later page is loaded again; any other failure re-reads the first page. */
export const retryPaged = (v: Pick<PagedValue, 'loadMoreError' | 'loadMore' | 'refresh'>) => (v.loadMoreError ? v.loadMore() : v.refresh())

/**
 * The body of a paged list: the skeleton, the error with Retry, or the empty state while there is
 * nothing to show; else the list, a failure line and Load more (part `more`). Retry re-reads the first
 * page unless the failure is a later page's (`loadMoreError`), which it loads again.
 *
 * Nothing to show while more pages exist (every row of the pages read so far left out by a filter) is
 * not empty: the skeleton while a page is loading, else Load more.
 */
export function pagedBody(v: PagedValue, count: number, s: PagedStrings, list: () => unknown) {
  if (count) return html`${list()} ${pagedTail(v, s)}`
  if (v.loading || (v.hasMore && v.loadingMore)) return loadingState(s.loading)
  if (v.error) return errorState(s.error, s.retry, () => retryPaged(v))
  return v.hasMore ? pagedTail(v, s) : emptyState(s.empty)
}

/**
 * Under a list with rows: a failure line with Retry (`retryPaged`, keeping focus), then Load more while there is more
 * (`part`: the element's name for the button, `more` by default). Load more stays focusable while the
 * page loads (`busy`), then focus moves to the first newly loaded row (`loadMoreAndFocus`; `rows`: the rows' part).
 */
export function pagedTail(v: Omit<PagedValue, 'loading'>, s: Omit<PagedStrings, 'loading' | 'empty'>, part = 'more', rows?: string) {
  // A later page that failed is loaded again as Load more does: focus then moves to its first row.
  return html`${v.error ? errorState(s.error, s.retry, () => v.refresh(), (b, r) => (v.loadMoreError ? loadMoreAndFocus(b, v, rows) : retryAndFocus(b, r))) : nothing}
    ${v.hasMore
      ? html`<button type="button" part=${part} class="vk-button more" ${busy(!!v.loadingMore)} @click=${(e: Event) => loadMoreAndFocus(e.currentTarget as HTMLElement, v, rows)}>
          ${v.loadingMore ? s.loadingMore : s.loadMore}
        </button>`
      : nothing}`
}

/**
 * PagedStrings from a slice that names them alike (`comments`, `room`): `empty`, the key of its empty-state sentence;
 * `error`, of its failure sentence ('error' unless told).
 */
export const pagedStrings = <E extends string>(
  str: { t(key: 'loading' | 'error' | 'retry' | 'loadMore' | 'loadingMore' | E): string },
  empty: E,
  error: E | 'error' = 'error',
): PagedStrings => ({
  loading: str.t('loading'),
  error: str.t(error),
  retry: str.t('retry'),
  empty: str.t(empty),
  loadMore: str.t('loadMore'),
  loadingMore: str.t('loadingMore'),
})

export const stateStyles = css`
  .vk-skeleton {
    display: grid;
    gap: var(--_vk-space-2);
    padding: var(--_vk-space-3) 0;
  }
  .vk-skeleton span {
    display: block;
    height: 0.8em;
    /* Invisible, except in forced colours, which remove the background and paint the border (CanvasText). */
    border: 1px solid transparent;
    border-radius: var(--_vk-radius);
    background: var(--_vk-color-surface);
    animation: vk-pulse 1.2s ease-in-out infinite alternate;
  }
  .vk-skeleton span:first-child {
    width: 40%;
  }
  @keyframes vk-pulse {
    to {
      opacity: 0.45;
    }
  }
  .vk-empty {
    margin: 0;
    padding: var(--_vk-space-4) 0;
    color: var(--_vk-color-muted);
    text-align: center;
  }
  .vk-error {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_vk-space-2);
    padding: var(--_vk-space-3) 0;
    color: var(--_vk-color-danger);
  }
  .vk-error p {
    margin: 0;
  }
  .vk-button {
    min-height: 32px;
    padding: 0 var(--_vk-space-3);
    border: 1px solid var(--_vk-color-border);
    border-radius: var(--_vk-radius-pill);
    background: var(--_vk-color-bg);
    color: var(--_vk-color-text);
    cursor: pointer;
  }
  .vk-button:hover {
    background: var(--_vk-color-surface);
  }
  .vk-button[disabled],
  .vk-button[aria-disabled='true'] {
    opacity: 0.6;
    cursor: default;
  }
  .vk-button.primary {
    border-color: var(--_vk-color-accent);
    background: var(--_vk-color-accent);
    color: var(--_vk-color-accent-text);
  }
`

/**
 * The error state for a store value: with a Retry button when the store can read again (`refresh`),
 * otherwise the sentence alone (a store without `refresh` re-reads on its own when the page regains focus).
 */
export function errorStateOf(v: object, text: string, retryLabel: string) {
  const refresh = (v as { refresh?: unknown }).refresh
  return typeof refresh === 'function'
    ? errorState(text, retryLabel, () => (refresh as () => void).call(v))
    : html`<div part="error" class="vk-error" role="alert"><p>${text}</p></div>`
}
