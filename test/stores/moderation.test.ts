/** `vk.moderationQueue({ venueId, state })` and `vk.moderate({ venueId })` (§2.10, §4.2, §4.4 rule 6): a venue's moderation reaches that venue. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { freshRef } from '../sdk/harness.ts'
import { mount, page, spyFetch, startEnv, until, type Env } from './helpers.ts'

let env: Env
before(async () => {
  env = await startEnv()
})
after(() => env.svc.close())

describe('a venue\'s moderation (§4.2 "mod.* … optional venueId")', () => {
  it('§4.2 "mod.queue, mod.keep, mod.hide, mod.pin … optional venueId": moderationQueue({ venueId, state }) and moderate({ venueId }) send the venue with the read and with every action (pin too), and the actions land on that venue: its hide, its pin, its Actioned tab', async (t) => {
    const spy = spyFetch()
    const venue = await env.h.venue()
    const node = { type: 'category' as const, ref: freshRef('modroom') }
    const roomId = await env.h.room(venue, node)
    const m = await env.h.addMarket({ nodes: [node] })
    const author = await env.h.signedIn({ apiKey: venue.key })
    await author.rooms.join(roomId)
    // A venue pins only posts in its own rooms; it hides any post, on its own pages only.
    const inRoom = await author.createPost('event', m.id, 'pin me', null, { room: roomId })
    const outside = await author.createPost('event', m.id, 'hide me on this venue')
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    await vk.signIn(venue.owner.w)

    const actioned = vk.moderationQueue({ venueId: venue.venueId, state: 'actioned' })
    t.after(mount(actioned))
    let q = await until(actioned, (v) => !v.loading && !v.error && !v.forbidden, 5000, "the venue's Actioned tab")
    assert.deepEqual(q.items, [])
    const read = spy.to('/v1/mod/queue', 'GET')[0].url.searchParams
    assert.deepEqual([read.get('venueId'), read.get('state')], [venue.venueId, 'actioned'])

    const mod = vk.moderate({ venueId: venue.venueId })
    const pinned = await mod.get().pin(inRoom.id)
    assert.deepEqual(spy.to('/v1/mod/pin', 'POST')[0].body, { postId: inRoom.id, venueId: venue.venueId })
    assert.deepEqual([pinned.venueId, pinned.post!.pinned], [venue.venueId, true])
    const hidden = await mod.get().hide(outside.id)
    assert.deepEqual(spy.to('/v1/mod/hide', 'POST')[0].body, { postId: outside.id, venueId: venue.venueId })
    assert.deepEqual([hidden.venueId, hidden.post!.hiddenHere, hidden.post!.state], [venue.venueId, true, 'visible'], 'hidden on this venue only')
    const unpinned = await mod.get().pin(inRoom.id, false)
    assert.deepEqual(spy.to('/v1/mod/pin', 'POST')[1].body, { postId: inRoom.id, venueId: venue.venueId, pinned: false })
    assert.equal(unpinned.post!.pinned, false)
    assert.equal(mod.get().error, null)

    // The venue's Actioned tab (re-read after the answers) lists both, with what was done.
    q = await until(actioned, (v) => v.items.length === 2, 5000, "both in the venue's Actioned tab")
    const done = Object.fromEntries(q.items.map((i) => [i.post.id, i.lastAction?.action]))
    assert.deepEqual(done, { [inRoom.id]: 'pin', [outside.id]: 'hide' })
    // The hide holds on the venue's pages, and nowhere else.
    const reader = env.h.client()
    assert.ok(!(await reader.posts('event', m.id, { venue: venue.venueId })).posts.some((p) => p.id === outside.id), "hidden on the venue's pages")
    assert.ok((await reader.posts('event', m.id)).posts.some((p) => p.id === outside.id), 'live everywhere else')
  })
})
