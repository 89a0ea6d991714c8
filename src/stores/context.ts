/**
 * The page context (`createVenuekit`): ONE per page (§4.5.5, §5.2). It holds one SDK client and one
 * session, shared by every store and element; a second one is refused. Store factories are methods on
 * it (`vk.feed(...)`, `vk.comments(...)`, …); the same arguments return the same store.
 */
import { computed, type ReadableAtom } from 'nanostores'
import type { SessionInfo } from '../contract/types.ts'
import { createClient, type VenuekitClient, type WalletSigner } from '../sdk/client.ts'
import type { ClientConfig } from '../sdk/config.ts'
import { VenuekitError } from '../sdk/errors.ts'
import { xhrFetch } from '../sdk/xhr-fetch.ts'
import { postActions } from './actions.ts'
import { authors } from './authors.ts'
import { adapterOf, checkout, type BuySettled, type CheckoutAdapter } from './checkout.ts'
import { comments } from './comments.ts'
import { createCtx } from './ctx.ts'
import { events } from './events.ts'
import { feeds } from './feeds.ts'
import { identity } from './identity.ts'
import { moderation, MODERATION_CTX } from './moderation.ts'
import { createPostOverlay } from './posts.ts'
import { createMarketCache, reads } from './reads.ts'
import { earlierReplies } from './replies.ts'
import { rooms } from './rooms.ts'

export interface VenuekitOptions {
  /**
   * The SDK client to share; or `config`, and the client is created for you. In a browser that client
   * reads over XMLHttpRequest (one task per answer instead of fetch's two) unless `config.fetchImpl` is set.
   */
  client?: VenuekitClient
  config?: ClientConfig
  /** The venue's checkout (drawer and one-tap buy); Tail and the prompt's buys go through it. */
  checkout?: CheckoutAdapter | null
  /** Report is offered only when true (default true). */
  moderation?: boolean
  /** §9.2: when set, every logout also ends the wallet session. */
  onSignOut?: () => void | Promise<void>
  /** How long a store with no subscriber is kept before it is released (ms, default 5000). */
  releaseMs?: number
  /** A read answered less than this long ago is reused instead of re-read (ms, default 4000). */
  dedupeMs?: number
}

declare const __VENUEKIT_MODERATION__: boolean | undefined

const SLOT = Symbol.for('venuekit.context')
const WATCHERS = Symbol.for('venuekit.context.watchers')
type Slot = { [SLOT]?: unknown; [WATCHERS]?: Set<(vk: Venuekit | null) => void> }

/** Watchers of the page's context, shared by every copy of venuekit on the page (like the slot). */
const watchers = () => ((globalThis as Slot)[WATCHERS] ??= new Set())
const announce = () => {
  const vk = getVenuekit()
  for (const w of [...watchers()]) {
    try {
      w(vk)
    } catch (e) {
      console.error('[venuekit] context watcher failed', e)
    }
  }
}

/**
 * Calls `cb` whenever the page's context is registered or disposed (elements that connected before the
 * page configured venuekit pick it up). Returns the remover.
 */
export function onVenuekitChange(cb: (vk: Venuekit | null) => void): () => void {
  watchers().add(cb)
  return () => void watchers().delete(cb)
}

export function createVenuekit(o?: VenuekitOptions | null) {
  // None (or null from JavaScript) is refused below as 'needs a client or a config', not a TypeError.
  o = Object(o) as VenuekitOptions
  const g = globalThis as Slot
  if (g[SLOT])
    throw new VenuekitError(
      'session-auth-exists',
      'a venuekit context already exists on this page: share it (getVenuekit()); two would race for the session',
    )
  if (!o.client && !o.config) throw new VenuekitError('validation', 'createVenuekit needs a client or a config')
  // Checked before anything is made: a refused checkout leaves no client, reads or context behind.
  const adapter = adapterOf(o.checkout)
  // In a browser the page's reads go over XMLHttpRequest unless the venue gave its own fetch (xhr-fetch.ts).
  const client = o.client ?? createClient(o.config!.fetchImpl || typeof XMLHttpRequest != 'function' ? o.config! : { ...o.config, fetchImpl: xhrFetch })
  const ctx = createCtx(client, { releaseMs: o.releaseMs ?? 5000, dedupeMs: o.dedupeMs ?? 4000 })

  const overlay = createPostOverlay()
  // Agree overrides are one reader's: another reader's reads start clean, and an answer that lands for the
  // previous reader finds its override gone and changes nothing (actions.ts react).
  // So are the earlier replies read for a parent (their `agreed` is the reader's).
  ctx.onDispose(
    ctx.$viewer.listen(() => {
      overlay.$agreed.set({})
      overlay.$replies.set({})
    }),
  )
  const replies = earlierReplies(ctx, overlay)
  const marketCache = createMarketCache(ctx)
  const ev = events(ctx)
  const actions = postActions(ctx, overlay, replies)
  const id = identity(ctx)
  const co = checkout(ctx, marketCache, adapter, (marketId, body) => actions.create('event', marketId, body))
  const r = reads(ctx, marketCache)

  // §9.2: with `onSignOut`, every logout (sign-out, or the session dropped) also ends the wallet session.
  let was: SessionInfo | null = client.session
  ctx.onDispose(
    ctx.$session.listen((s) => {
      if (was && !s && o.onSignOut) Promise.resolve(o.onSignOut()).catch((e) => console.error('[venuekit] onSignOut failed', e))
      was = s
    }),
  )

  const vk = {
    client,
    $session: ctx.$session as ReadableAtom<SessionInfo | null>,
    moderation: o.moderation ?? true,
    /** Signs in with the wallet (SIWE); the session is the client's, shared by every store. */
    signIn: (wallet: WalletSigner & { venueId?: string }) => client.auth.signIn(wallet),
    /** Ends the session (and, with `onSignOut`, the wallet session). */
    signOut: () => client.auth.signOut(),
    $checkout: co.$checkout,
    setCheckout: co.setCheckout,
    /** The venue reports a settled buy from its checkout drawer (drives the take prompt, §3.4). */
    buySettled: (b: BuySettled) => co.buySettled(b),

    comments: comments(ctx, overlay, replies, ev.push),
    ...feeds(ctx, overlay, marketCache, replies),
    postActions: actions.postActions,
    ...rooms(ctx),
    authorTakes: authors(ctx, overlay, marketCache),
    // The readers' script bundle is built without the moderation stores (vite.config.ts); the operator's
    // script attaches them to the page's context when its element first needs them (`withModeration`).
    ...((typeof __VENUEKIT_MODERATION__ == 'boolean' && !__VENUEKIT_MODERATION__ ? {} : moderation(ctx)) as ReturnType<typeof moderation>),
    checkout: co.checkout,
    tail: co.tail,
    takePrompt: co.takePrompt,
    profiles: id.profiles,
    profile: id.profile,
    me: id.me,
    follow: id.follow,
    canPost: id.canPost,
    ...r,
    events: ev.events,
    notifications: ev.notifications,
    /** Whether Report is offered: moderation on and signed in (§4.4.4). */
    $canReport: computed(ctx.$session, (s) => !!s && (o.moderation ?? true)),

    /** Unregisters the context (tests, hot reload) and closes what it opened. */
    dispose() {
      const was = g[SLOT] === vk
      if (was) delete g[SLOT]
      ctx.dispose()
      if (was) announce()
      if (!o.client) client.close()
    },
  }
  Object.defineProperty(vk, MODERATION_CTX, { value: ctx })
  g[SLOT] = vk
  announce()
  return vk
}

export type Venuekit = ReturnType<typeof createVenuekit>

/** The page's context, or null when none was created. */
export const getVenuekit = (): Venuekit | null => ((globalThis as Slot)[SLOT] as Venuekit | undefined) ?? null
