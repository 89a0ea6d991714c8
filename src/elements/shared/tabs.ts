/**
 * A tab list with roving tabindex: the selected tab is the one in the tab order; Left/Right (wrapping),
 * Home and End move the selection and the focus. Tab ids are `tab-<key>`, the panel is `panel`.
 * Parts: `tabs`, `tab`. Add `tabStyles` to the element's styles.
 */
import { css, html } from 'lit'

export interface Tab<K extends string> {
  key: K
  label: string
}

export function tabList<K extends string>(
  host: { renderRoot: ParentNode; updateComplete: Promise<unknown> },
  o: { tabs: Tab<K>[]; selected: K; label: string; select: (key: K) => void },
) {
  const keys = o.tabs.map((t) => t.key)
  const move = (e: KeyboardEvent) => {
    const i = keys.indexOf(o.selected)
    const to = ({ ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: keys.length - 1 } as Record<string, number>)[e.key]
    if (to === undefined) return
    e.preventDefault()
    const key = keys[(to + keys.length) % keys.length]
    o.select(key)
    void host.updateComplete.then(() => host.renderRoot.querySelector<HTMLElement>(`#tab-${key}`)?.focus())
  }
  return html`<div part="tabs" role="tablist" aria-label=${o.label} @keydown=${move}>
    ${o.tabs.map(
      (t) => html`<button
        type="button"
        role="tab"
        part="tab"
        id=${`tab-${t.key}`}
        aria-selected=${String(o.selected === t.key)}
        aria-controls="panel"
        tabindex=${o.selected === t.key ? 0 : -1}
        @click=${() => o.select(t.key)}
      >
        ${t.label}
      </button>`,
    )}
  </div>`
}

export const tabStyles = css`
  /*
   * Only the selected tab has a bottom border (forced colours paint a transparent one too, so every tab would look
   * selected there); the labels share a baseline, so the others being 2px shorter does not move them.
   */
  [role='tablist'] {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: var(--_vk-space-2);
    border-bottom: 1px solid var(--_vk-color-border);
  }
  [role='tab'] {
    background: none;
    border: 0;
    padding: var(--_vk-space-2) var(--_vk-space-3);
    cursor: pointer;
  }
  [aria-selected='true'] {
    border-bottom: 2px solid var(--_vk-color-accent);
    font-weight: 600;
  }
`
