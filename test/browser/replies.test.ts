/**
 * "Show earlier replies" (elements/shared/replies.ts): a page folds in a busy post's newest 50 replies;
 * the control above them reads the ones before, in the thread, the takes feed and the room.
 */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/comments/comments.ts'
import '../../src/elements/community-takes/community-takes.ts'
import '../../src/elements/strings-provider/strings-provider.ts'
import { freshRef } from '../sdk/harness.ts'
import { deepText, disposeVk, isPath, makeVk, service, until } from './elements-env.ts'

const replyIds = (root: ShadowRoot) => [...root.querySelectorAll('[part~="reply-row"]')].map((r) => r.id.replace('vk-post-', ''))
const control = (root: ShadowRoot) => root.querySelector<HTMLButtonElement>('[part~="earlier"] [part~="more"]')

/** A topic thread whose one post has `n` replies (ids oldest first). */
async function busyTopic(n: number) {
  const s = await service()
  const ref = freshRef('topic')
  const w = await s.signedIn()
  const parent = await w.createPost('topic', ref, 'a busy take')
  const ids: string[] = []
  for (let i = 0; i < n; i++) ids.push((await w.createPost('topic', ref, `reply ${i + 1}`, parent.id)).id)
  return { ref, parent, ids }
}

describe('"Show earlier replies"', () => {
  afterEach(() => disposeVk())

  it('a busy post shows its newest 50 replies under a control that reads the ones before them; focus moves to the first reply read', async () => {
    await makeVk()
    const { ref, ids } = await busyTopic(53)
    const el = await fixture(html`<vk-comments subject-type="topic" subject-ref=${ref}></vk-comments>`)
    const root = el.shadowRoot!
    await until(() => replyIds(root).length === 50, 'the newest 50 replies')
    expect(replyIds(root)).to.deep.equal(ids.slice(3))
    const button = control(root)!
    expect(deepText(button).trim()).to.equal('Show earlier replies')
    await expect(el).to.be.accessible()
    button.focus()
    button.click()
    await until(() => replyIds(root).length === 53, 'the earlier replies')
    expect(replyIds(root)).to.deep.equal(ids, 'above the page, oldest first')
    expect(control(root), 'none left: the control is gone').to.equal(null)
    await until(() => root.activeElement?.id === `vk-post-${ids[0]}`, 'focus on the first reply read')
  })

  it('while reading, the control says so and stays focusable (aria-disabled, aria-busy); a failed read is an error line with Retry, and the control reads again', async () => {
    const vk = await makeVk()
    const { ref, ids } = await busyTopic(51)
    const el = await fixture(html`<vk-comments subject-type="topic" subject-ref=${ref}></vk-comments>`)
    const root = el.shadowRoot!
    await until(() => replyIds(root).length === 50, 'the newest 50 replies')
    const release = vk.faults.hold(isPath('/replies'), 500)
    control(root)!.click()
    await until(() => deepText(control(root)!).trim() === 'Loading more…', 'the loading label')
    expect(control(root)!.getAttribute('aria-busy')).to.equal('true')
    expect(control(root)!.getAttribute('aria-disabled')).to.equal('true')
    release()
    const error = () => root.querySelector('[part~="earlier"] [part~="error"]')
    await until(error, 'the failure')
    expect(error()!.getAttribute('role')).to.equal('alert')
    expect(deepText(error()!.querySelector('p')!).trim()).to.equal("Couldn't load earlier replies.")
    expect(replyIds(root)).to.deep.equal(ids.slice(1), 'the page is still shown')
    await expect(el).to.be.accessible()
    control(root)!.click()
    await until(() => replyIds(root).length === 51, 'read again')
    expect(root.querySelector('[part~="earlier"]')).to.equal(null)
  })

  it('Retry on a failed read reads the earlier replies again', async () => {
    const vk = await makeVk()
    const { ref, ids } = await busyTopic(52)
    const el = await fixture(html`<vk-comments subject-type="topic" subject-ref=${ref}></vk-comments>`)
    const root = el.shadowRoot!
    await until(() => replyIds(root).length === 50, 'the newest 50 replies')
    const off = vk.faults.fail(isPath('/replies'))
    control(root)!.click()
    await until(() => root.querySelector('[part~="earlier"] [part~="retry"]'), 'the Retry')
    off()
    root.querySelector<HTMLButtonElement>('[part~="earlier"] [part~="retry"]')!.click()
    await until(() => replyIds(root).length === 52, 'read again')
    expect(replyIds(root)).to.deep.equal(ids)
  })

  it('its words come from the strings provider, and the takes feed offers it too', async () => {
    await makeVk()
    const { ref, ids } = await busyTopic(51)
    const wrap = await fixture(html`<vk-strings-provider
      .strings=${{ comments: { earlierReplies: 'Older replies', repliesLabel: 'Answers' } }}
      ><vk-community-takes scope="subject" subject-type="topic" subject-ref=${ref}></vk-community-takes
    ></vk-strings-provider>`)
    const el = wrap.querySelector('vk-community-takes')!
    const root = el.shadowRoot!
    await until(() => replyIds(root).length === 50, 'the newest 50 replies in the feed')
    expect(deepText(control(root)!).trim()).to.equal('Older replies')
    expect(root.querySelector('[part~="replies"]')!.getAttribute('aria-label')).to.equal('Answers')
    control(root)!.click()
    await until(() => replyIds(root).length === 51, 'the earlier reply')
    expect(replyIds(root)).to.deep.equal(ids)
  })
})
