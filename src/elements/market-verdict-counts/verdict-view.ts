/** The verdict tally both verdict elements draw: right / wrong / undecided, and the void line. */
import { html, nothing } from 'lit'
import type { Verdict } from '../../contract/types.ts'
import type { StringsController } from '../shared/strings-controller.ts'

export function verdictCounts(s: StringsController<'room'>, v: Verdict) {
  return html`<ul part="counts" aria-label=${s.t('verdictLabel')}>
      <li class="right">${s.t('verdictRight', { count: v.right })}</li>
      ${v.void ? nothing : html`<li class="wrong">${s.t('verdictWrong', { count: v.wrong })}</li>`}
      <li class="undecided">${s.t('verdictUndecided', { count: v.undecided })}</li>
    </ul>
    ${v.void ? html`<p part="void">${s.t('verdictVoid')}</p>` : nothing}`
}
