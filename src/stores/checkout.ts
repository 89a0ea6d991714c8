/**
 * Checkout through the venue's adapter (`vk.checkout`, hook `useCheckout`), Tail (`vk.tail`, §2.12) and
 * the take prompt (`vk.takePrompt`, §3.4).
 *
 * Take prompt: a settled buy from the checkout drawer (`vk.buySettled`) opens it when this wallet,
 * market and side have no answer yet; a silent one-tap send never opens it. Skip and a posted take both
 * answer it. Answers and the open prompt persist (`localStorage`, stores/persisted.ts), so a reload without an
 * answer asks again and an answered prompt never asks twice.
 * The prompt belongs to the buying wallet: it is shown only while the session's account holds that wallet
 * (the session's wallet or another wallet of its account, which is who a take is written by, §2.1). Signed
 * out, or signed in as another account, it is hidden, never answered, and kept for the buyer (one open
 * prompt per wallet), who sees it again on signing back in.
 */
import { persistedMap } from './persisted.ts'
import { atom, computed, onMount, type ReadableAtom } from 'nanostores'
import { isMarketId, isWallet } from '../contract/ids.ts'
import type { Post, SessionInfo } from '../contract/types.ts'
import { isTradeable, sideLabel } from '../core/markets.ts'
import { ValidationError, VenuekitError } from '../sdk/errors.ts'
import { fn, marketId as checkMarketId } from '../sdk/validate.ts'
import type { Ctx } from './ctx.ts'
import type { MarketCache } from './reads.ts'

export interface CheckoutAdapter {
  /** Opens the venue's checkout drawer on a market side. Resolves when the drawer closes. */
  openCheckout(o: { marketId: string; side: number; source?: 'tail' | 'prompt' | 'button' }): Promise<void> | void
  /** One-tap buy without the drawer (silent: never opens the take prompt, §3.4). */
  predict?(o: { marketId: string; side: number; amount?: string }): Promise<{ settled: boolean }>
}
export type CheckoutTarget = Parameters<CheckoutAdapter['openCheckout']>[0]
export type PredictOrder = Parameters<NonNullable<CheckoutAdapter['predict']>>[0]

export interface CheckoutValue {
  predict(o: PredictOrder): Promise<{ settled: boolean }>
  openCheckout(o: CheckoutTarget): Promise<void>
  /** An adapter is set. */
  available: boolean
}
export interface TailValue {
  /**
   * Opens checkout on the take's exact side; false (nothing opened) when it cannot, instead of guessing: no
   * adapter, no stance, not a market, or a market the page knows is not open. True: the drawer opens after
   * the same fresh read of the market as every buy (§7.2); a market that has closed since the page read it
   * opens nothing, and the fresh copy makes `canTail` false, so the Tail control goes.
   */
  tail(post: Pick<Post, 'subjectType' | 'subjectRef' | 'stance'>): boolean
  /** Whether `tail(post)` would open checkout now (for drawing the Tail control). */
  canTail(post: Pick<Post, 'subjectType' | 'subjectRef' | 'stance'>): boolean
}
export interface BuySettled {
  wallet: string
  marketId: string
  side: number
  /** A silent one-tap send (no drawer): never opens the prompt. */
  silent?: boolean
}
export interface TakePromptValue {
  open: boolean
  /** The buying wallet; the prompt is open only while the session's account holds it. */
  wallet: string | null
  marketId: string | null
  side: number | null
  /** The side's label (displayLabel over label), null until the market is known. */
  outcomeLabel: string | null
  /**
   * The market's other sides' labels and displayLabels (empty until the market is known): a venue's own label
   * for the side (`<vk-take-prompt outcome-label>`) that names one of these is not this side's.
   */
  otherLabels: (string | undefined)[]
  /** The title of the market it asks about (so the reader knows what the take is on), null until known. */
  marketTitle: string | null
  /**
   * The label of the side a take posted now would show, when that is not the side asked about: the stance is
   * the account's largest position (§1.4), which can be the other side of this buy. Null otherwise, and until
   * the service has said (`client.myStance`).
   */
  otherSideLabel: string | null
  /** Answers the prompt without a take. */
  skip(): void
  /** Posts the take on the market's thread and answers the prompt; throws (and stays open) on failure. */
  post(body: string): Promise<Post>
}

interface Open {
  wallet: string
  marketId: string
  side: number
}

const noAdapter = () => new VenuekitError('no-checkout', 'no checkout adapter: pass one to createVenuekit({ checkout }) or vk.setCheckout(adapter)')
/** An adapter (or null: none) checked when it is given, not when a buy first calls it. */
export const adapterOf = (a: CheckoutAdapter | null | undefined) => {
  if (a != null) {
    fn(a.openCheckout, 'checkout.openCheckout')
    if (a.predict != null) fn(a.predict, 'checkout.predict')
  }
  return a ?? null
}
const checkTarget = (o: { marketId: string; side: number }) => {
  const id = checkMarketId(o?.marketId)
  if (!Number.isInteger(o.side) || o.side < 0) throw new ValidationError('side', 'must be an outcome index')
  return { ...o, marketId: id }
}

export function checkout(ctx: Ctx, markets: MarketCache, adapter: CheckoutAdapter | null, createTake: (marketId: string, body: string) => Promise<Post>) {
  const $checkout = atom(adapter)

  /**
   * §7.2: a trade can revert on a market that looks open (un-resolved is not tradeable), so a buy is gated
   * on `isTradeable()` of the market read now, never the page's cached copy: a market resolved or voided
   * before its closing time looks open in a copy read earlier, and one unknown then may exist now. The read
   * refreshes the cache too (Tail). A market that is unknown or not tradeable throws, as does a failed read
   * (the gate never fails open), and the adapter is never asked.
   */
  const assertTradeable = async (marketId: string) => {
    const m = (await markets.batch([marketId]))[marketId] ?? null
    if (!m) throw new VenuekitError('market-not-found', 'no market with this id')
    if (!isTradeable(m)) throw new VenuekitError('not-tradeable', 'this market is not open for trading (closed, resolved or voided)')
  }
  const openCheckout = async (o: CheckoutTarget, source: 'button' | 'tail' = 'button') => {
    const a = $checkout.get()
    if (!a) throw noAdapter()
    const t = checkTarget(o)
    await assertTradeable(t.marketId)
    await a.openCheckout({ source, ...t })
  }
  const predict = async (o: PredictOrder) => {
    const a = $checkout.get()
    if (!a?.predict) throw noAdapter()
    const t = checkTarget(o)
    await assertTradeable(t.marketId)
    return a.predict(t)
  }
  const $checkoutValue = computed($checkout, (a): CheckoutValue => ({ predict, openCheckout, available: !!a }))

  /** The market of a take when Tail can act on it now; starts reading an unknown market. */
  const tailTarget = (post: Pick<Post, 'subjectType' | 'subjectRef' | 'stance'>) => {
    if (!$checkout.get() || !post?.stance || post.subjectType !== 'event' || !isMarketId(post.subjectRef)) return null
    const id = post.subjectRef.toLowerCase()
    const m = markets.$markets.get()[id]
    if (m === undefined) markets.ensure(id)
    return m && isTradeable(m) ? { marketId: id, side: post.stance.side } : null
  }
  const $tail = computed([$checkout, markets.$markets], (): TailValue => ({
    canTail: (post) => !!tailTarget(post),
    tail: (post) => {
      const t = tailTarget(post)
      if (!t) return false
      // The drawer opens after the same fresh read as every buy (§7.2): a page's copy that still looks open
      // may have resolved meanwhile; then nothing opens, and the fresh copy takes Tail off the take. The drawer
      // reports its own outcome (vk.buySettled); tail only says whether it could act.
      openCheckout(t, 'tail').catch(() => {})
      return true
    },
  }))

  // The take prompt's persisted state: per buying wallet its open prompt (`<marketId>|<side>`, asked again
  // after a reload and when that wallet signs in again), and the answers.
  const $open = persistedMap<Record<string, string | undefined>>('vk:take-prompt:open:')
  const $answered = persistedMap<Record<string, string | undefined>>('vk:take-prompt:answered:')
  ctx.onDispose($open.listen(() => {}))
  ctx.onDispose($answered.listen(() => {}))
  const answerKey = (o: Open) => `${o.wallet}|${o.marketId}|${o.side}`
  const openOf = (wallet: string, v: string | undefined): Open | null => {
    const [marketId, side] = (v ?? '').split('|')
    return isMarketId(marketId) && /^\d+$/.test(side ?? '') ? { wallet, marketId, side: Number(side) } : null
  }
  /** The unanswered prompt the session's account sees: its session wallet's first, then its other wallets'. */
  const pendingFor = (session: SessionInfo | null, open: Record<string, string | undefined>, answered: Record<string, string | undefined>): Open | null => {
    if (!session) return null
    for (const w of new Set([session.wallet, ...(session.wallets ?? [])].filter(Boolean).map((x) => x.toLowerCase()))) {
      const o = openOf(w, open[w])
      if (o && !answered[answerKey(o)]) return o
    }
    return null
  }
  /** The prompt the current session sees now. */
  const pendingNow = () => pendingFor(ctx.$session.get(), $open.get(), $answered.get())
  /** Both are the same prompt (same wallet, market and side). */
  const same = (a: Open | null, b: Open | null): b is Open => !!a && !!b && answerKey(a) === answerKey(b)
  const answer = (o: Open) => {
    $answered.setKey(answerKey(o), new Date().toISOString())
    if (same(openOf(o.wallet, $open.get()[o.wallet]), o)) $open.setKey(o.wallet, undefined)
  }
  /** Acts only on the prompt the current session sees (a stale value never answers another wallet's prompt). */
  const current = (o: Open | null) => {
    if (!same(pendingNow(), o)) throw new VenuekitError('no-prompt', 'the take prompt is not open for the signed-in wallet')
    return o
  }

  // The side a take posted now would show, per prompt (answerKey), read from the service when the prompt is
  // shown, and again after every buy of it (a larger buy of the asked side can make it the largest position).
  const $held = atom<Record<string, number | null>>({})
  /** The latest read of each prompt's held side (an older answer that comes after it is dropped). */
  const heldRead = new Map<string, number>()
  let reads = 0
  /**
   * The prompts drawn now, by the market they are limited to ('' for any market): a prompt is read (its
   * market, its held side) only while one that would show it is drawn.
   */
  const watching = new Map<string, number>()
  const wanted = (o: Open | null): o is Open => !!o && ((watching.get('') ?? 0) > 0 || (watching.get(o.marketId) ?? 0) > 0)
  const readHeld = (o: Open | null) => {
    const k = o && answerKey(o)
    if (!k || heldRead.has(k)) return
    const n = ++reads
    heldRead.set(k, n)
    ctx.client.myStance(o.marketId).then(
      (r) => heldRead.get(k) == n && $held.set({ ...$held.get(), [k]: r.stance?.side ?? null }),
      () => heldRead.get(k) == n && heldRead.delete(k),
    )
  }

  /** The venue reports a settled buy; returns whether the prompt opened. */
  const buySettled = (b: BuySettled): boolean => {
    if (!isWallet(b?.wallet)) throw new ValidationError('wallet', 'must be a wallet address (0x and 40 hex characters)')
    const t = checkTarget(b)
    if (b.silent) return false
    const o: Open = { wallet: b.wallet.toLowerCase(), marketId: t.marketId, side: t.side }
    if ($answered.get()[answerKey(o)]) return false
    $open.setKey(o.wallet, `${o.marketId}|${o.side}`)
    // Open for the reader only while the buyer's account is signed in (otherwise kept for the buyer).
    const shown = pendingNow()
    heldRead.delete(answerKey(o))
    if (wanted(shown)) {
      markets.ensure(shown.marketId)
      readHeld(shown)
    }
    return same(shown, o)
  }

  /** The prompt drawn for `only` (a market id; '' for any market): open only while the pending prompt is about it. */
  const promptFor = (only: string) =>
    computed([$open, $answered, markets.$markets, ctx.$session, $held], (open, answered, ms, session, held): TakePromptValue => {
      const pending = pendingFor(session, open, answered)
      const o = pending && (!only || pending.marketId === only) ? pending : null
      const m = o ? ms[o.marketId] : null
      const h = o ? held[answerKey(o)] : null
      return {
        open: !!o,
        wallet: o?.wallet ?? null,
        marketId: o?.marketId ?? null,
        side: o?.side ?? null,
        outcomeLabel: m && o ? sideLabel(m.outcomes, o.side) : null,
        otherLabels: m && o ? m.outcomes.flatMap((x, i) => (i == o.side ? [] : [x.label, x.displayLabel])) : [],
        marketTitle: m?.title ?? null,
        otherSideLabel: m && o && h != null && h !== o.side ? sideLabel(m.outcomes, h) : null,
        skip: () => {
          // A stale value's skip never answers a prompt the current session does not see.
          if (same(pendingNow(), o)) answer(o)
        },
        post: async (body: string) => {
          const asked = current(o)
          const p = await createTake(asked.marketId, body)
          answer(asked)
          return p
        },
      }
    })

  /** `vk.takePrompt(marketId?)`: one store per market filter, reading only what a drawn prompt shows. */
  const takePrompt = (marketId?: string): ReadableAtom<TakePromptValue> => {
    const only = marketId === undefined ? '' : checkMarketId(marketId)
    return ctx.keep(`prompt:${only}`, () => {
      const $p = promptFor(only)
      onMount($p, () => {
        // The market of the prompt the reader sees (again on every sign-in: the buyer's prompt comes back).
        const read = () => {
          const o = pendingNow()
          if (!wanted(o)) return
          markets.ensure(o.marketId)
          readHeld(o)
        }
        watching.set(only, (watching.get(only) ?? 0) + 1)
        read()
        const off = ctx.$session.listen(read)
        return () => {
          watching.set(only, watching.get(only)! - 1)
          off()
        }
      })
      return $p
    })
  }

  return {
    $checkout: $checkout as ReadableAtom<CheckoutAdapter | null>,
    setCheckout: (a: CheckoutAdapter | null) => $checkout.set(adapterOf(a)),
    checkout: (): ReadableAtom<CheckoutValue> => $checkoutValue,
    tail: (): ReadableAtom<TailValue> => $tail,
    takePrompt,
    buySettled,
  }
}
