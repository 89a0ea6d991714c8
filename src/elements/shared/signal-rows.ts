/**
 * A ranked page drawn with its trading (§1.6, §2.2): each post with the signal and settlement lines attached
 * to it, and the quiet signal rows of their own, placed before the post they name (`before`; null: after the
 * last). Drawn by `<vk-community-takes>` and by `<vk-room-feed>`'s taxonomy-node section; `<vk-feed>` draws
 * posts only (§4.4 rule 4).
 */
import { css, html, nothing, type TemplateResult } from 'lit'
import { repeat } from 'lit/directives/repeat.js'
import type { Post, Settlement, Signal } from '../../contract/types.ts'
import { sideLabel } from '../../core/index.ts'
import type { FeedValue } from '../../stores/index.ts'
import type { StringsController } from './strings-controller.ts'
import type { VkElement } from './vk-element.ts'
import { marketLink } from './market-link.ts'

/** A post with its lines, or a quiet signal row (`key`: unique in the list, for `repeat`). */
export type FeedRow = { post: Post; lines: Signal[]; settled: Settlement[] } | { quiet: Signal; key: string }

type Page = Pick<FeedValue, 'posts' | 'signals' | 'settlements' | 'labels' | 'titles'>

/**
 * The rows of a page: posts kept by `keepPost`, each with its signal lines, and the quiet signal rows between
 * them. A left-out post's lines stay where it stood, as quiet rows; `keepSignal` drops signals.
 */
export function feedRows(v: Page, keepPost: (p: Post) => boolean, keepSignal: (s: Signal) => boolean): FeedRow[] {
  const lines = new Map<string, Signal[]>()
  const quietBefore = new Map<string | null, Signal[]>()
  const push = <K, V>(m: Map<K, V[]>, k: K, x: V) => m.set(k, [...(m.get(k) ?? []), x])
  for (const s of v.signals) {
    if (!keepSignal(s)) continue
    if (s.attachTo) push(lines, s.attachTo, s)
    else push(quietBefore, s.before, s)
  }
  const rows: FeedRow[] = []
  const keys = new Set<string>()
  const quietRow = (quiet: Signal): FeedRow => {
    const base = `s:${quiet.before ?? ''}:${quiet.marketId}:${quiet.side}`
    let key = base
    for (let n = 2; keys.has(key); n++) key = `${base}:${n}`
    keys.add(key)
    return { quiet, key }
  }
  let waiting: Signal[] = []
  for (const p of v.posts) {
    waiting.push(...(quietBefore.get(p.id) ?? []))
    if (!keepPost(p)) {
      waiting.push(...(lines.get(p.id) ?? []))
      continue
    }
    rows.push(...waiting.map(quietRow))
    waiting = []
    rows.push({ post: p, lines: lines.get(p.id) ?? [], settled: v.settlements.filter((s) => s.attachTo === p.id) })
  }
  return [...rows, ...[...waiting, ...(quietBefore.get(null) ?? [])].map(quietRow)]
}

/**
 * The list of a page's rows (`part="list"`): a quiet row is its market (a button: `vk-open-market`) and its
 * line (`signal-row`); a post row (`row`, `id="vk-post-<id>"`) is `post(p)` then its `signal` and
 * `settlement` lines, then `after(p)` (its replies).
 */
export function rowsList(
  host: VkElement,
  str: StringsController<'comments'>,
  v: Page,
  rows: FeedRow[],
  post: (p: Post) => unknown,
  after: (p: Post) => unknown,
): TemplateResult {
  const side = (marketId: string, n: number) => sideLabel(v.labels[marketId.toLowerCase()], n) ?? str.t('sideNumber', { n: n + 1 })
  const signal = (s: Signal) => str.t('signalCallersMoved', { count: s.count, side: side(s.marketId, s.side) })
  const settled = (s: Settlement) =>
    str.t('settlementLine', {
      head: 'winner' in s.result ? str.t('settlementResolved', { outcome: side(s.marketId, s.result.winner) }) : str.t('settlementVoid'),
      tally: str.t('settlementTally', { right: s.right, wrong: s.wrong }),
    })
  return html`<ol part="list" class="list">
    ${repeat(
      rows,
      (r) => ('quiet' in r ? r.key : r.post.id),
      (r) => {
        if ('quiet' in r) {
          const s = r.quiet
          const title = v.titles[s.marketId.toLowerCase()]
          return html`<li part="signal-row" class="quiet">
            ${title
              ? marketLink(host, s.marketId, title)
              : nothing}
            <span>${signal(s)}</span>
          </li>`
        }
        const p = r.post
        return html`<li part="row" class="row" id="vk-post-${p.id}">
          ${post(p)} ${r.lines.map((s) => html`<p part="signal" class="line">${signal(s)}</p>`)}
          ${r.settled.map((s) => html`<p part="settlement" class="line">${settled(s)}</p>`)} ${after(p)}
        </li>`
      },
    )}
  </ol>`
}

/** Signal and settlement lines under a post, and a quiet signal row's panel. */
export const signalStyles = css`
  .line {
    margin: 0 var(--_vk-space-3) var(--_vk-space-2);
    color: var(--_vk-color-muted);
    font-size: var(--_vk-font-size-small);
  }
  .quiet {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_vk-space-1) var(--_vk-space-2);
    margin: var(--_vk-space-2) 0;
    padding: var(--_vk-space-2) var(--_vk-space-3);
    border-radius: var(--_vk-radius);
    background: var(--_vk-color-surface);
    color: var(--_vk-color-muted);
    font-size: var(--_vk-font-size-small);
  }
`
