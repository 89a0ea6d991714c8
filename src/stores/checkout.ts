/**
 * Checkout through the venue's adapter (`vk.checkout`, hook `useCheckout`), Tail (`vk.tail`, §2.12) and
 * the take prompt (`vk.takePrompt`, §3.4).
 *
 * Take prompt: a settled buy from the checkout drawer (`vk.buySettled`) opens it when this wallet,
 * market and side have no answer yet; a silent one-tap send never opens it. Skip and a posted take both
 * answer it. Answers and the open prompt persist (`@nanostores/persistent`), so a reload without an
 * answer asks again and an answered prompt never asks twice.
 */
import { persistentJSON, persistentMap } from '@nanostores/persistent'
import { atom, computed, onMount, type ReadableAtom } from 'nanostores'
import { isMarketId, isWallet } from '../contract/ids.ts'
import type { Post } from '../contract/types.ts'
import { isTradeable, sideLabel } from '../core/markets.ts'
import { ValidationError, VenuekitError } from '../sdk/errors.ts'
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
  /** Opens checkout on the take's exact side; false (nothing opened) when it cannot, instead of guessing. */
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
  wallet: string | null
  marketId: string | null
  side: number | null
  /** The side's label (displayLabel over label), null until the market is known. */
  outcomeLabel: string | null
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
const checkTarget = (o: { marketId: string; side: number }) => {
  if (!isMarketId(o?.marketId)) throw new ValidationError('marketId', 'must be a market id (0x and 64 hex characters)')
  if (!Number.isInteger(o.side) || o.side < 0) throw new ValidationError('side', 'must be an outcome index')
  return { ...o, marketId: o.marketId.toLowerCase() }
}

export function checkout(ctx: Ctx, markets: MarketCache, adapter: CheckoutAdapter | null, createTake: (marketId: string, body: string) => Promise<Post>) {
  const $checkout = atom<CheckoutAdapter | null>(adapter)

  /**
   * §7.2: a trade can revert on a market that looks open (un-resolved is not tradeable), so a buy is gated
   * on `isTradeable()`: the market as known, else read now. A market that is unknown or not tradeable throws
   * and the adapter is never asked.
   */
  const assertTradeable = async (marketId: string) => {
    let m = markets.$markets.get()[marketId]
    if (m === undefined) m = (await markets.batch([marketId]))[marketId] ?? null
    if (!m) throw new VenuekitError('market-not-found', 'no market with this id')
    if (!isTradeable(m)) throw new VenuekitError('not-tradeable', 'this market is not open for trading (closed, resolved or voided)')
  }
  const openCheckout = async (o: CheckoutTarget) => {
    const a = $checkout.get()
    if (!a) throw noAdapter()
    const t = checkTarget(o)
    await assertTradeable(t.marketId)
    await a.openCheckout({ source: 'button', ...t })
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
      try {
        // The drawer reports its own outcome (vk.buySettled); tail only says whether it opened.
        Promise.resolve($checkout.get()!.openCheckout({ ...t, source: 'tail' })).catch(() => {})
        return true
      } catch {
        return false
      }
    },
  }))

  // The take prompt's persisted state: the open prompt (asked again after a reload) and the answers.
  const $open = persistentJSON<Open | null>('vk:take-prompt:open', null)
  const $answered = persistentMap<Record<string, string | undefined>>('vk:take-prompt:answered:')
  ctx.onDispose($open.listen(() => {}))
  ctx.onDispose($answered.listen(() => {}))
  const answerKey = (o: Open) => `${o.wallet}|${o.marketId}|${o.side}`
  const answer = (o: Open) => {
    $answered.setKey(answerKey(o), new Date().toISOString())
    if ($open.get() && answerKey($open.get()!) === answerKey(o)) $open.set(null)
  }

  /** The venue reports a settled buy; returns whether the prompt opened. */
  const buySettled = (b: BuySettled): boolean => {
    if (!isWallet(b?.wallet)) throw new ValidationError('wallet', 'must be a wallet address (0x and 40 hex characters)')
    const t = checkTarget(b)
    if (b.silent) return false
    const o: Open = { wallet: b.wallet.toLowerCase(), marketId: t.marketId, side: t.side }
    if ($answered.get()[answerKey(o)]) return false
    $open.set(o)
    markets.ensure(o.marketId)
    return true
  }

  const $prompt = computed([$open, $answered, markets.$markets], (o0, answered, ms): TakePromptValue => {
    const o = o0 && !answered[answerKey(o0)] ? o0 : null
    const m = o ? ms[o.marketId] : null
    return {
      open: !!o,
      wallet: o?.wallet ?? null,
      marketId: o?.marketId ?? null,
      side: o?.side ?? null,
      outcomeLabel: m && o ? sideLabel(m.outcomes, o.side) : null,
      skip: () => void (o && answer(o)),
      post: async (body: string) => {
        if (!o) throw new VenuekitError('no-prompt', 'the take prompt is not open')
        const p = await createTake(o.marketId, body)
        answer(o)
        return p
      },
    }
  })
  onMount($prompt, () => {
    const o = $open.get()
    if (o) markets.ensure(o.marketId)
  })

  return {
    $checkout: $checkout as ReadableAtom<CheckoutAdapter | null>,
    setCheckout: (a: CheckoutAdapter | null) => $checkout.set(a),
    checkout: (): ReadableAtom<CheckoutValue> => $checkoutValue,
    tail: (): ReadableAtom<TailValue> => $tail,
    takePrompt: (): ReadableAtom<TakePromptValue> => $prompt,
    buySettled,
  }
}
