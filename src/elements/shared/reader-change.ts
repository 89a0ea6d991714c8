/**
 * What a reader did on an element (a failure line, a room's refusal, an open edit or report form) is
 * theirs: when the page's session changes (sign-out, sign-in, another account) the element forgets it, so
 * the next reader never sees the previous one's "you left this room — rejoin to post" or "Couldn't delete".
 * `onChange` runs before the render that follows the change (state it sets is drawn by that render).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit'
import type { SessionInfo } from '../../contract/types.ts'

export class ReaderChange implements ReactiveController {
  /** The session's token at the last update ('' signed out); undefined until the session is known. */
  declare private seen: string | undefined
  /** Counts the changes: an action started under one reader checks it before showing its result. */
  private epoch = 0

  /** `session`: the page's session (undefined while the element has no venuekit context). */
  declare private readonly session: () => SessionInfo | null | undefined
  declare private readonly onChange: () => void

  constructor(host: ReactiveControllerHost, session: () => SessionInfo | null | undefined, onChange: () => void) {
    this.session = session
    this.onChange = onChange
    host.addController(this)
  }

  hostUpdate() {
    const s = this.session()
    if (s === undefined) return
    const now = s?.token ?? ''
    if (this.seen !== undefined && this.seen !== now) {
      this.epoch++
      this.onChange()
    }
    this.seen = now
  }

  /**
   * Call when an action starts; the function it returns says whether the reader is still the same. A result
   * that comes back after a change is the previous reader's: not shown (a change before the host's next update
   * is caught by `onChange`, which runs then and clears what was shown). `still`: what else must still hold for
   * the result to be shown here (the element still shows the post, room or subject the action was for).
   */
  mine(still?: () => boolean): () => boolean {
    const at = this.epoch
    return () => at === this.epoch && (!still || still())
  }
}
