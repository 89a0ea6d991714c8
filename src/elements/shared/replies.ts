/**
 * A post's replies under its row, one level deep: "Show earlier replies" above them while a page holds only
 * a busy post's newest replies (stores/replies.ts), then one row per reply (`part="reply-row"`,
 * `id="vk-post-<id>"`, focusable for `focus-post-id`). Shared by the thread, the takes feed and the room.
 *
 * It is a list's tail (`pagedTail`): the button stays focusable while the replies load (`busy`), then focus
 * moves to the first reply read (the earliest), as Load more moves it to a new page's first row; a failed
 * read is an error line with Retry above it.
 */
import { html, nothing } from 'lit'
import { repeat } from 'lit/directives/repeat.js'
import type { Post } from '../../contract/types.ts'
import type { EarlierReplies } from '../../stores/replies.ts'
import { pagedTail } from './states.ts'
import type { StringsController } from './strings-controller.ts'

export const repliesView = (replies: Post[], earlier: EarlierReplies | null, str: StringsController<'comments'>, card: (r: Post) => unknown) =>
  replies.length
    ? html`${earlier
          ? html`<div part="earlier" class="earlier">
              ${pagedTail(earlier, { error: str.t('earlierError'), retry: str.t('retry'), loadMore: str.t('earlierReplies'), loadingMore: str.t('loadingMore') }, 'more', 'reply-row')}
            </div>`
          : nothing}
        <ol part="replies" class="replies" aria-label=${str.t('repliesLabel')}>
          ${repeat(replies, (r) => r.id, (r) => html`<li part="reply-row" class="reply-row" id="vk-post-${r.id}" tabindex="-1">${card(r)}</li>`)}
        </ol>`
    : nothing
