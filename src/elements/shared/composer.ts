/**
 * A text composer (new post, reply, edit, report reason), kept by the element that shows it (it asks that element
 * to update; it needs none of a controller's lifecycle, so it is not registered as one):
 * a labelled textarea and a submit button in a `<form>`, the text kept across renders, busy while
 * sending, a failure sentence (role=alert) when the send throws. Ctrl/Cmd+Enter submits; in a form with
 * `onCancel` (a reply, an edit, a report), Escape cancels like its Cancel button. The submit button stays
 * focusable while sending (`busy`), so focus is not dropped to the page's body.
 * `send` returning `false` means "not sent, keep the text, no failure" (e.g. sign-in required).
 * A send that throws keeps the text, shows `failed` (a sentence, or one chosen for the error: see
 * `shared/failures.ts`) and fires `vk-error` from the host with the error, like every element's failure.
 */
import { css, html, nothing, type ReactiveControllerHost } from 'lit'
import { LIMITS, hasVisibleText } from '../../contract/limits.ts'
import { busy } from './pending.ts'
import { submitOnCtrlEnter } from './submit-keys.ts'
import type { VkElement } from './vk-element.ts'

export interface ComposerText {
  label: string
  placeholder: string
  submit: string
  busy: string
  /** The failure sentence, or a function choosing it for the error the send threw. */
  failed: string | ((error: unknown) => string)
  /** Shown as a Cancel button when set. */
  cancel?: string
  /**
   * A failure one action cures (a room's "join this room to post in it": Join): a button beside the failure
   * line that runs it, then sends the kept text again.
   */
  recover?: (error: unknown) => { label: string; run: () => Promise<unknown> } | null
}

export class Composer {
  value = ''
  pending = false
  failed = false
  /** What the last send threw (while `failed`), or what its cure threw. */
  error: unknown = null
  /** What the last send threw: the failure a cure (`recover`) is offered for, kept while the cure fails. */
  private refusal: unknown = null
  /** Counts `clearFailure` calls: a send that answers after the reader changed shows nothing. */
  private epoch = 0

  declare private readonly host: ReactiveControllerHost & Pick<VkElement, 'emit'>
  declare private readonly send: (body: string) => Promise<boolean | void>
  declare private readonly onCancel?: () => void
  declare private readonly maxLength: number

  constructor(
    host: ReactiveControllerHost & Pick<VkElement, 'emit'>,
    send: (body: string) => Promise<boolean | void>,
    onCancel?: () => void,
    maxLength: number = LIMITS.bodyMaxChars,
  ) {
    this.host = host
    this.send = send
    this.onCancel = onCancel
    this.maxLength = maxLength
  }

  /** Forgets the last failure and keeps the text (when the reader changes: `ReaderChange`); a send still in flight shows nothing. */
  clearFailure() {
    this.epoch++
    if (!this.failed) return
    this.failed = false
    this.error = this.refusal = null
    this.host.requestUpdate()
  }

  reset(value = '') {
    this.value = value
    this.failed = false
    this.error = this.refusal = null
    this.host.requestUpdate()
  }

  private readonly submit = async (e: Event) => {
    e.preventDefault()
    const body = this.value.trim()
    const area = (e.target as HTMLElement).closest('form')?.querySelector('textarea')
    // While sending, another submit (the button stays focusable, Ctrl+Enter) does nothing and leaves focus be.
    if (this.pending) return
    if (!hasVisibleText(body)) return area?.focus()
    this.pending = true
    this.failed = false
    this.error = null
    this.host.requestUpdate()
    const at = this.epoch
    try {
      // Sent: the text goes, unless it changed meanwhile (after a reader change too: the next reader must not
      // find the previous one's posted text ready to post again).
      if ((await this.send(body)) !== false && this.value.trim() === body) this.value = ''
    } catch (error) {
      if (at !== this.epoch) return
      this.failed = true
      this.error = this.refusal = error
      this.host.emit('vk-error', { error })
    } finally {
      this.pending = false
      this.host.requestUpdate()
    }
  }

  /**
   * The failure's cure (`recover`), then the same text sent again. A cure that fails shows its own failure and
   * stays offered; after a reader change (`clearFailure`) nothing is sent. Focus stays on the button while it
   * runs (busy), then moves to the send button.
   */
  private async cure(run: () => Promise<unknown>, form: HTMLFormElement | null) {
    if (this.pending) return
    const at = this.epoch
    this.pending = true
    this.host.requestUpdate()
    let cured = false
    try {
      await run()
      cured = true
    } catch (error) {
      if (at === this.epoch) {
        this.error = error
        this.host.emit('vk-error', { error })
      }
    } finally {
      this.pending = false
      this.host.requestUpdate()
    }
    if (!cured || at !== this.epoch) return
    this.failed = false
    form?.querySelector<HTMLElement>('[part~="submit"]')?.focus()
    form?.requestSubmit()
  }

  /** Cancel: the text is dropped and the form's owner closes it (`onCancel`). */
  private readonly cancel = () => {
    this.reset()
    this.onCancel?.()
  }

  /** Escape is Cancel in a form that can be cancelled (not while its send is in flight). */
  private readonly escape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !this.onCancel || this.pending || e.defaultPrevented) return
    e.preventDefault()
    e.stopPropagation()
    this.cancel()
  }

  render(text: ComposerText, o: { id: string; part?: string; rows?: number; autofocus?: boolean }) {
    const cure = this.failed ? text.recover?.(this.refusal) : null
    return html`<form part=${o.part ?? 'composer'} class="vk-composer" @submit=${this.submit} @keydown=${this.escape}>
      <label class="vk-visually-hidden" for=${o.id}>${text.label}</label>
      <textarea
        id=${o.id}
        part="input"
        dir="auto"
        rows=${o.rows ?? 2}
        maxlength=${this.maxLength}
        placeholder=${text.placeholder}
        ?autofocus=${o.autofocus}
        .value=${this.value}
        @input=${(e: Event) => (this.value = (e.target as HTMLTextAreaElement).value)}
        @keydown=${submitOnCtrlEnter}
      ></textarea>
      <div class="vk-composer-actions">
        ${this.failed
          ? html`<span part="failure" class="vk-composer-failed" role="alert">${typeof text.failed === 'function' ? text.failed(this.error) : text.failed}</span>`
          : nothing}
        ${cure
          ? html`<button type="button" class="vk-button" part="recover" ${busy(this.pending)} @click=${(e: Event) => this.cure(cure.run, (e.target as HTMLElement).closest('form'))}>
              ${cure.label}
            </button>`
          : nothing}
        ${text.cancel
          ? html`<button type="button" class="vk-button" part="cancel" @click=${this.cancel}>${text.cancel}</button>`
          : nothing}
        <button type="submit" class="vk-button primary" part="submit" ${busy(this.pending)}>
          ${this.pending ? text.busy : text.submit}
        </button>
      </div>
    </form>`
  }
}

export const composerStyles = css`
  .vk-composer {
    display: grid;
    gap: var(--_vk-space-2);
  }
  .vk-composer textarea {
    width: 100%;
    min-height: 2.6em;
    padding: var(--_vk-space-2);
    border: 1px solid var(--_vk-color-border);
    border-radius: var(--_vk-radius);
    background: var(--_vk-color-bg);
    resize: vertical;
  }
  .vk-composer-actions {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: flex-end;
    gap: var(--_vk-space-2);
  }
  .vk-composer-failed {
    margin-inline-end: auto;
    color: var(--_vk-color-danger);
    font-size: var(--_vk-font-size-small);
  }
`
