/**
 * Bad input to the stores' public functions (§4.2, §9.5), over a real service: null where an options object goes (from
 * JavaScript) is read as no options, and an argument the store cannot use is refused with a `ValidationError` naming
 * it when it is given, never a raw TypeError from inside a store or later, when a buy or a read first uses it.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { Market } from '../../src/contract/types.ts'
import { ValidationError, VenuekitError } from '../../src/sdk/index.ts'
import { createVenuekit, type CheckoutAdapter } from '../../src/stores/index.ts'
import { mount, page, signInOn, startEnv, until, type Env } from './helpers.ts'

let env: Env
let m: Market
before(async () => {
  env = await startEnv()
  m = await env.h.addMarket()
  const w = await env.h.signedIn()
  await w.createPost('event', m.id, 'a take to read')
})
after(() => env.svc.close())

const refused = (arg: string) => (e: unknown) => e instanceof ValidationError && e.code === 'validation' && e.argument === arg && e.message.startsWith(arg)

describe('stores: bad input', () => {
  it('§4.2 options: null as the options object of a store (from JavaScript) is read as no options: the very store asked for without them, which loads', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const pairs: [string, () => unknown, () => unknown][] = [
      ['comments', () => vk.comments('event', m.id, null), () => vk.comments('event', m.id)],
      ['feed', () => vk.feed('global', null), () => vk.feed('global')],
      ['forYou', () => vk.forYou(null), () => vk.forYou()],
      ['roomFeed', () => vk.roomFeed({ subjectType: 'event', subjectRef: m.id }, null), () => vk.roomFeed({ subjectType: 'event', subjectRef: m.id })],
      ['moderationQueue', () => vk.moderationQueue(null), () => vk.moderationQueue()],
      ['moderate', () => vk.moderate(null), () => vk.moderate()],
      ['events', () => vk.events(null, null), () => vk.events()],
    ]
    const offs: (() => void)[] = []
    for (const [name, withNull, without] of pairs) {
      const s = withNull() as Parameters<typeof mount>[0]
      offs.push(mount(s))
      assert.equal(s, without(), `${name}(…, null) is ${name}(…)`)
    }
    const thread = await until(vk.comments('event', m.id, null), (v) => !v.loading)
    assert.equal(thread.error, null)
    assert.deepEqual(thread.posts.map((p) => p.body), ['a take to read'])
    const feed = await until(vk.feed('global', null), (v) => !v.loading)
    assert.equal(feed.error, null)
    offs.forEach((off) => off())
  })

  it('§4.2 postActions.create: null options writes a top-level post outside any room, as with none', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    await signInOn(vk, env)
    const p = await vk.postActions().get().create('event', m.id, 'null options', null)
    assert.equal(p.parentId, null)
    assert.equal(p.body, 'null options')
  })

  it('§9.5 createVenuekit(options): none at all, or null from JavaScript, is refused as "needs a client or a config" (a VenuekitError), not a TypeError', () => {
    for (const o of [undefined, null])
      assert.throws(() => createVenuekit(o), (e: unknown) => e instanceof VenuekitError && e.code === 'validation' && /needs a client or a config/.test(e.message), String(o))
  })

  it('§9.5 roomFeed(target): no target, or one of neither shape (a room id, a subject), is refused with a ValidationError naming target', (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    for (const target of [undefined, null, 5, {}, { subjectRef: m.id }]) assert.throws(() => vk.roomFeed(target as never), refused('target'), JSON.stringify(target))
  })

  it('§4.2 postActions.react(post): a post that is no post (null, no id, a bad id) rejects with a ValidationError before any override or request, and nothing stays pending', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    await signInOn(vk, env)
    const actions = vk.postActions()
    const off = mount(actions)
    for (const post of [null, undefined, {}, { id: 'not-a-post', agrees: 0, agreed: false }])
      await assert.rejects(actions.get().react(post as never), refused('post'), JSON.stringify(post))
    assert.equal(actions.get().pending, false)
    off()
  })

  it('§3.4 setCheckout(adapter): a value that is no adapter (5, {}, a predict that is not a function) is refused when set, and the adapter set before stays; null removes it', (t) => {
    const opened: string[] = []
    const good: CheckoutAdapter = { openCheckout: (o) => void opened.push(o.marketId) }
    const vk = page(env, { checkout: good })
    t.after(() => vk.dispose())
    for (const [a, arg] of [[5, 'checkout.openCheckout'], ['drawer', 'checkout.openCheckout'], [{}, 'checkout.openCheckout'], [{ openCheckout: 'open' }, 'checkout.openCheckout'], [{ openCheckout: () => {}, predict: 5 }, 'checkout.predict']] as const)
      assert.throws(() => vk.setCheckout(a as never), refused(arg), JSON.stringify(a))
    assert.equal(vk.$checkout.get(), good, 'the adapter set before stays')
    vk.setCheckout(null)
    assert.equal(vk.$checkout.get(), null)
  })

  it('§3.4 createVenuekit({ checkout }): a checkout that is no adapter is refused when the context is made, and no context is left on the page', () => {
    assert.throws(() => page(env, { checkout: 5 as never }), refused('checkout.openCheckout'))
    // The failed call left nothing registered: a context can still be made.
    page(env).dispose()
  })
})
