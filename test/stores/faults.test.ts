/**
 * The stores under faults the service (or what stands in front of it) can produce, injected with MSW over a real
 * service: a success that is no JSON object with fields (a 204 where JSON is expected, `{}`). Reads must end in an
 * error state (HttpError `invalid-response`, never a TypeError thrown into a subscriber) whose Retry works once the
 * fault is gone; writes must throw (§7.1) and an optimistic Agree must roll back.
 */
import { after, afterEach, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { ReadableAtom } from 'nanostores'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { PATHS } from '../../src/contract/paths.ts'
import type { Market } from '../../src/contract/types.ts'
import { HttpError } from '../../src/sdk/index.ts'
import { mount, page, signInOn, startEnv, until, type Env } from './helpers.ts'

let env: Env
let m: Market
let author: string
const msw = setupServer()
before(async () => {
  env = await startEnv()
  m = await env.h.addMarket()
  const w = await env.h.signedIn()
  author = w.w.address.toLowerCase()
  await w.createPost('event', m.id, 'a take to read')
  msw.listen({ onUnhandledRequest: 'bypass' })
})
afterEach(() => msw.resetHandlers())
after(() => {
  msw.close()
  return env.svc.close()
})

/** The answers that are no answer: a 204 where JSON is expected, and an object without any field. */
const NOT_ANSWERS: [string, () => Response][] = [
  ['a 204', () => new HttpResponse(null, { status: 204 })],
  ['{}', () => HttpResponse.json({})],
]
const invalid = (e: unknown) => e instanceof HttpError && e.code === 'invalid-response'
/** A page context without a socket (MSW stands in front of HTTP only); the thread still reads over HTTP (§6.2). */
const httpOnly = () => page(env, { config: { WebSocketImpl: undefined } })

describe('stores under faults (MSW)', () => {
  for (const [what, answer] of NOT_ANSWERS) {
    it(`§4.2 reads (useComments, useFeed, useTakeCounts, useAuthorTakes): ${what} where a page is expected leaves each store in an error state (HttpError invalid-response), and its Retry reads the service once the fault is gone`, async (t) => {
      const base = env.svc.url
      msw.use(...[PATHS.posts, PATHS.feed, PATHS.takeCounts, PATHS.profilePosts(author)].map((p) => http.get(base + p, answer)))
      const vk = httpOnly()
      t.after(() => vk.dispose())
      const stores: [string, ReadableAtom<{ error: unknown; refresh(): void }>, (v: any) => boolean][] = [
        ['comments', vk.comments('event', m.id), (v) => v.posts.length === 1],
        ['feed', vk.feed('global'), (v) => v.posts.some((p: { subjectRef: string }) => p.subjectRef === m.id)],
        ['takeCounts', vk.takeCounts([m.id]), (v) => v.countOf(m.id)?.posts === 1],
        ['authorTakes', vk.authorTakes(author), (v) => v.discussion.posts.length === 1],
      ]
      for (const [, s] of stores) t.after(mount(s))
      for (const [name, s] of stores) {
        const v = await until(s, (v) => !!v.error, 5000, `${name}: an error state`)
        assert.ok(invalid(v.error), `${name}: ${String(v.error)}`)
      }
      msw.resetHandlers()
      for (const [name, s, read] of stores) {
        s.get().refresh()
        const v = await until(s, (v) => !v.error && read(v), 5000, `${name}: read again after Retry`)
        assert.equal(v.error, null)
      }
    })
  }

  it('§7.1 "Every client write action throws on failure": a post answered with a 204 throws HttpError invalid-response; an Agree answered with {} throws and rolls back to what the thread showed', async (t) => {
    const vk = httpOnly()
    t.after(() => vk.dispose())
    await signInOn(vk, env)
    const thread = vk.comments('event', m.id)
    t.after(mount(thread))
    const actions = vk.postActions()
    t.after(mount(actions))
    const shown = (await until(thread, (v) => v.posts.length === 1)).posts[0]
    assert.deepEqual([shown.agreed, shown.agrees], [false, 0])

    msw.use(http.post(env.svc.url + PATHS.posts, () => new HttpResponse(null, { status: 204 })))
    await assert.rejects(actions.get().create('event', m.id, 'lost in a 204'), invalid)
    assert.equal(actions.get().pending, false)

    msw.use(http.post(env.svc.url + PATHS.react(shown.id), () => HttpResponse.json({})))
    await assert.rejects(actions.get().react(shown), invalid)
    const after = thread.get().posts[0]
    assert.deepEqual([after.agreed, after.agrees], [false, 0], 'rolled back to what the read showed')
  })
})
