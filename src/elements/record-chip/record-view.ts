/** How a settled record reads, shared by the chip and the boards: rank of population, or unranked. */
import { html, nothing } from 'lit'
import type { SettledRecord } from '../../contract/types.ts'
import type { StringsController } from '../shared/strings-controller.ts'

type Rec = Pick<SettledRecord, 'rank' | 'population' | 'right' | 'wrong'>

/** 'Unranked', or '#rank of population' — never a rank without its population (§2.12). */
export function rankText(s: StringsController<'room'>, r: Pick<Rec, 'rank' | 'population'>): string {
  return r.rank != null && typeof r.population === 'number' && r.population > 0 ? s.t('rank', { rank: r.rank, population: r.population }) : s.t('unranked')
}

/**
 * The chip: the rank, then the separator (`recordSeparator`, spaced) and the record. The separator is text a screen reader reads too (like the
 * one inside the record), so the two phrases are never run together ("#1 of 3 1 right" read as "31").
 */
export function recordChip(s: StringsController<'room'>, r: Rec) {
  const ranked = r.rank != null && r.population > 0
  return html`<span part="chip" class=${ranked ? 'ranked' : 'muted'}
    ><span class="rank">${rankText(s, r)}</span>${r.right || r.wrong
      ? html`<span class="sep"> ${s.t('recordSeparator')} </span><span>${s.t('record', { right: r.right, wrong: r.wrong })}</span>`
      : nothing}</span
  >`
}
