/**
 * Demo data for `venuekit serve` and the demo pages. Deterministic: the same markets (ids derived from
 * fixed slugs), wallets (fixed keys, demo-wallets.ts), trades, posts and results on every run; only
 * the timestamps follow the clock (the story is laid out over the ~40 hours before `now`).
 *
 * Everything goes through the real service paths: markets, prices, trades and resolutions through the
 * chain controller; posts, replies and agrees through the post service with a Caller, follows through the follow service, so every stance
 * on a seeded take is proven from a seeded position, exactly as for a user.
 */
import { keccak256, toHex } from 'viem'
import type { SubjectType } from '../contract/ids.ts'
import type { NodeRef, OutcomeLabel } from '../contract/types.ts'
import type { ChainController } from './chain/source.ts'
import type { ServiceContext } from './context.ts'
import { accountForWallet, type Caller } from './auth/session.ts'
import { follow as followSubject } from './services/follows.ts'
import { createPost, reactPost } from './services/posts.ts'
import { DEMO_WALLETS, type DemoHandle } from './demo-wallets.ts'

export { DEMO_KEYS, DEMO_WALLETS, type DemoHandle, type DemoWallet } from './demo-wallets.ts'

/** A market id derived from a slug: `0x` + keccak256("venuekit demo market <slug>"). */
export const demoMarketId = (slug: string) => keccak256(toHex(`venuekit demo market ${slug}`)).toLowerCase()

const YES_NO: OutcomeLabel[] = [{ label: 'Yes' }, { label: 'No' }]
const UP_DOWN: OutcomeLabel[] = [{ label: 'Up' }, { label: 'Down' }]
/** A binary price-threshold market: the chain's Yes/No carry the display labels Above/Below (§9.4). */
const ABOVE_BELOW: OutcomeLabel[] = [
  { label: 'Yes', displayLabel: 'Above' },
  { label: 'No', displayLabel: 'Below' },
]
const n = (type: NodeRef['type'], ref: string): NodeRef => ({ type, ref })
const HOUR = 3600_000
const DAY = 24 * HOUR
/** Collateral has 6 decimals: `usd(25)` is 25 units in base units. */
const usd = (v: number) => BigInt(Math.round(v * 1_000_000))

interface DemoMarket {
  slug: string
  title: string
  outcomes?: OutcomeLabel[]
  nodes: NodeRef[]
  series?: string
  clob?: boolean
  /** Days from now (negative: closed already). */
  closesInDays: number
  prices: number[]
}

/** The demo markets. `series` rounds share one durable series thread. */
export const DEMO_MARKETS: readonly DemoMarket[] = [
  { slug: 'btc-150k', title: 'Will Bitcoin trade above $150,000 before 31 December?', nodes: [n('category', 'crypto'), n('topic', 'bitcoin')], closesInDays: 40, prices: [3800, 6200] },
  { slug: 'eth-staking-etf', title: 'Will a US spot ETH ETF with staking be approved by June?', nodes: [n('category', 'crypto'), n('topic', 'ethereum'), n('country', 'us'), n('org', 'sec')], closesInDays: 60, prices: [5500, 4500] },
  { slug: 'eth-4k-friday', title: 'ETH on Friday 16:00 UTC: above $4,000?', outcomes: ABOVE_BELOW, nodes: [n('category', 'crypto'), n('topic', 'ethereum')], closesInDays: 3, prices: [4700, 5300] },
  { slug: 'btc-up-or-down-day-1', title: 'Bitcoin up or down today? (day 1)', outcomes: UP_DOWN, nodes: [n('category', 'crypto'), n('topic', 'bitcoin')], series: 'btc-up-or-down', closesInDays: -1.3, prices: [5000, 5000] },
  { slug: 'btc-up-or-down-day-2', title: 'Bitcoin up or down today? (day 2)', outcomes: UP_DOWN, nodes: [n('category', 'crypto'), n('topic', 'bitcoin')], series: 'btc-up-or-down', closesInDays: -1.1, prices: [5000, 5000] },
  { slug: 'btc-up-or-down-day-3', title: 'Bitcoin up or down today? (day 3)', outcomes: UP_DOWN, nodes: [n('category', 'crypto'), n('topic', 'bitcoin')], series: 'btc-up-or-down', closesInDays: 0.5, prices: [5400, 4600] },
  { slug: 'brazil-election', title: 'Will the incumbent win the Brazilian presidential election?', nodes: [n('category', 'politics'), n('topic', 'elections'), n('country', 'br')], closesInDays: 120, prices: [4200, 5800] },
  { slug: 'fed-cut', title: 'Will the Fed cut rates at its next meeting?', nodes: [n('category', 'economy'), n('topic', 'rates'), n('country', 'us'), n('org', 'fed')], closesInDays: 20, prices: [6400, 3600] },
  {
    slug: 'ucl-final',
    title: 'Champions League final: who lifts the trophy?',
    outcomes: [{ label: 'Real Madrid' }, { label: 'Arsenal' }, { label: 'Inter' }, { label: 'Bayern' }],
    nodes: [n('category', 'sports'), n('topic', 'football'), n('org', 'uefa')],
    clob: true,
    closesInDays: 75,
    prices: [3100, 2400, 1800, 2700],
  },
  { slug: 'lakers-playoffs', title: 'Will the Lakers make the playoffs?', nodes: [n('category', 'sports'), n('topic', 'basketball'), n('org', 'nba'), n('country', 'us')], closesInDays: -1.05, prices: [3000, 7000] },
  { slug: 'london-snow-xmas', title: 'Will London record snow on Christmas Day?', nodes: [n('category', 'weather'), n('country', 'gb')], closesInDays: -1.05, prices: [1200, 8800] },
  { slug: 'tokyo-35c', title: 'Will Tokyo reach 35°C before August?', nodes: [n('category', 'weather'), n('topic', 'heat'), n('country', 'jp')], closesInDays: 45, prices: [5600, 4400] },
]

const LAKERS_PRICES = [28, 29, 30, 31, 32, 33, 34]
const LAKERS_WHEN = [
  'after the trade news',
  'before tip-off',
  'at the half',
  'after the injury report',
  'this morning',
  'into the weekend',
  "after last night's win",
  'with three games this week',
]
/** What each demo wallet says, in keeping with what it holds then: ben Yes, dmitri and farah No, the rest nothing. */
const LAKERS_LINES: Record<DemoHandle, (price: number, when: string) => string> = {
  ada: (p, w) => `Yes at ${p}¢ ${w}. Watching, not trading.`,
  ben: (p, w) => `Yes at ${p}¢ ${w}: still cheap with the starters back.`,
  chloe: (p, w) => `Who is buying Yes at ${p}¢ ${w}?`,
  dmitri: (p, w) => `Yes at ${p}¢ ${w}, and the road trip is still ahead. No.`,
  emeka: (p, w) => `Yes printed ${p}¢ ${w}.`,
  farah: (p, w) => `Yes at ${p}¢ ${w} ignores their defence. No.`,
}
const TALKERS: DemoHandle[] = ['ben', 'ada', 'farah', 'chloe', 'emeka', 'dmitri']
/**
 * The talk under Dmitri's No take on the Lakers: 55 replies, more than a thread folds under one post
 * (`LIMITS.repliesPerParent`, 50), so the demo shows "Show earlier replies". No two lines are the same
 * (7 prices × 8 moments).
 */
export const LAKERS_TALK: readonly (readonly [DemoHandle, string])[] = Array.from({ length: 55 }, (_, i) => {
  const who = TALKERS[i % TALKERS.length]
  return [who, LAKERS_LINES[who](LAKERS_PRICES[i % LAKERS_PRICES.length], LAKERS_WHEN[i % LAKERS_WHEN.length])] as const
})

/** Market ids by slug. */
export const DEMO_MARKET_IDS: Readonly<Record<string, string>> = Object.fromEntries(DEMO_MARKETS.map((m) => [m.slug, demoMarketId(m.slug)]))

export interface SeedResult {
  /** Market id per slug. */
  markets: Record<string, string>
  /** Lowercased address per demo handle. */
  wallets: Record<DemoHandle, string>
  /** Post ids by the script's labels (for tests and the demo's deep links). */
  posts: Record<string, string>
}

/** True when the store holds no markets and no posts: the CLI seeds only then. */
export async function isStoreEmpty(ctx: ServiceContext): Promise<boolean> {
  const m = await ctx.db.selectFrom('markets').select('id').limit(1).executeTakeFirst()
  const p = await ctx.db.selectFrom('posts').select('id').limit(1).executeTakeFirst()
  return !m && !p
}

export async function seedDemo(svc: { ctx: ServiceContext; chain: ChainController }, opts: { now?: Date } = {}): Promise<SeedResult> {
  const { chain } = svc
  if ((await svc.ctx.chain.markets([demoMarketId(DEMO_MARKETS[0].slug)])).size) throw new Error('the demo data is already seeded in this store')
  const end = (opts.now ?? svc.ctx.now()).getTime()
  // The story's clock: each step moves it forward, so posts and trades are spread over the last ~40 hours.
  let t = end - 42 * HOUR
  const step = (minutes: number) => (t = Math.min(end - 60_000, t + minutes * 60_000))
  const ctx: ServiceContext = { ...svc.ctx, now: () => new Date(t) }

  const callers = {} as Record<DemoHandle, Caller>
  const wallets = {} as Record<DemoHandle, string>
  for (const w of DEMO_WALLETS) {
    const wallet = w.address.toLowerCase()
    const accountId = await accountForWallet(ctx, wallet)
    await ctx.db
      .insertInto('profiles')
      .values({ account_id: accountId, name: w.name, avatar_url: null, updated_at: ctx.now() })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ name: w.name }))
      .execute()
    const h = w.handle as DemoHandle
    wallets[h] = wallet
    callers[h] = { accountId, wallet, wallets: [wallet], venueId: null, operator: false, tokenHash: '', bans: [] }
  }

  const markets: Record<string, string> = {}
  for (const m of DEMO_MARKETS) {
    const id = demoMarketId(m.slug)
    await chain.addMarket({
      id,
      title: m.title,
      outcomes: m.outcomes ?? YES_NO,
      nodes: m.nodes,
      series: m.series ?? null,
      clob: !!m.clob,
      closesAt: new Date(end + m.closesInDays * DAY),
    })
    for (const [side, bps] of m.prices.entries()) await chain.setPrice(id, side, bps)
    markets[m.slug] = id
  }

  const posts: Record<string, string> = {}
  /** A buy at the market's current price of that side: the position it leaves proves the take after it. */
  const trade = async (who: DemoHandle, slug: string, side: number, size: number) => {
    step(20)
    await chain.trade({ wallet: wallets[who], marketId: markets[slug], side, size: usd(size), at: new Date(t) })
  }
  const say = async (label: string, who: DemoHandle, slug: string, body: string) => {
    step(55)
    const p = await createPost(ctx, callers[who], { subjectType: 'event', subjectRef: markets[slug], body })
    posts[label] = p.id
  }
  /** A take: a buy, then a post on the market that the position it leaves proves. */
  const take = async (label: string, who: DemoHandle, slug: string, side: number, size: number, body: string) => {
    await trade(who, slug, side, size)
    await say(label, who, slug, body)
  }
  const onNode = async (label: string, who: DemoHandle, node: NodeRef, body: string) => {
    step(45)
    const p = await createPost(ctx, callers[who], { subjectType: node.type, subjectRef: node.ref, body })
    posts[label] = p.id
  }
  const reply = async (label: string, who: DemoHandle, parent: string, body: string) => {
    step(30)
    await writeReply(label, who, parent, body)
  }
  const writeReply = async (label: string, who: DemoHandle, parent: string, body: string) => {
    const parentPost = await ctx.db.selectFrom('posts').select(['subject_type', 'subject_ref']).where('id', '=', posts[parent]).executeTakeFirstOrThrow()
    const p = await createPost(ctx, callers[who], {
      subjectType: parentPost.subject_type as SubjectType,
      subjectRef: parentPost.subject_ref,
      body,
      parentId: posts[parent],
    })
    posts[label] = p.id
  }
  /**
   * Many replies under one post in quick succession: spread over the `minutes` after the story's clock, which
   * is left where it was, so the posts after them keep their times (the story's next step is 20 minutes on).
   */
  const chatter = async (parent: string, lines: readonly (readonly [DemoHandle, string])[], minutes: number) => {
    const from = t
    for (const [i, [who, body]] of lines.entries()) {
      t = from + Math.round((minutes * 60_000 * (i + 1)) / (lines.length + 1))
      await writeReply(`${parent}-talk-${i + 1}`, who, parent, body)
    }
    t = from
  }
  const agree = async (who: DemoHandle, label: string) => {
    step(9)
    await reactPost(ctx, callers[who], posts[label], 'agree', true)
  }
  const follow = (who: DemoHandle, node: NodeRef) => followSubject(ctx, callers[who].accountId, node.type, node.ref)

  // --- Settled first: the Lakers (resolved No), London snow (voided), two rounds of the Bitcoin series.
  await take('lakers-ben', 'ben', 'lakers-playoffs', 0, 40, 'Healthy roster after the break. Yes at 30¢ is a gift.')
  await take('lakers-dmitri', 'dmitri', 'lakers-playoffs', 1, 25, 'Their remaining schedule is brutal: six road games against the top four. No.')
  await take('lakers-farah', 'farah', 'lakers-playoffs', 1, 10, 'Defence ranks 24th since January. Not a playoff team.')
  await reply('lakers-ben-reply', 'emeka', 'lakers-ben', 'Healthy for how long, though?')
  await agree('farah', 'lakers-dmitri')
  await agree('emeka', 'lakers-dmitri')
  // A busy take: more replies than a thread folds under a post, so the demo shows "Show earlier replies".
  // Early in the story, so it ranks among the feed's other takes rather than above them.
  await chatter('lakers-dmitri', LAKERS_TALK, 18)

  await take('snow-chloe', 'chloe', 'london-snow-xmas', 0, 15, 'Models keep showing a cold plume on the 24th. Worth a small Yes.')
  await take('snow-emeka', 'emeka', 'london-snow-xmas', 1, 30, 'Snow on the day in London happens about once a decade. No.')
  await agree('ada', 'snow-emeka')

  await take('day1-ada', 'ada', 'btc-up-or-down-day-1', 0, 12, 'Asia session opened strong. Up.')
  await take('day1-ben', 'ben', 'btc-up-or-down-day-1', 1, 8, 'CPI at 14:30 will knock it down. Down.')
  await chain.resolve(markets['btc-up-or-down-day-1'], 0)

  await take('day2-farah', 'farah', 'btc-up-or-down-day-2', 1, 20, 'Funding went negative overnight. Down today.')
  await take('day2-ada', 'ada', 'btc-up-or-down-day-2', 0, 10, 'Two green days in a row; momentum says Up.')
  await chain.resolve(markets['btc-up-or-down-day-2'], 1)

  await chain.resolve(markets['lakers-playoffs'], 1)
  await say('lakers-dmitri-after', 'dmitri', 'lakers-playoffs', 'Called it. Final standings: 11th.')
  await chain.resolve(markets['london-snow-xmas'], 'void')
  await say('snow-chloe-after', 'chloe', 'london-snow-xmas', 'Voided: the Heathrow station was down on the day. Stakes back.')

  // --- Open markets.
  await onNode('series-ada', 'ada', n('series', 'btc-up-or-down'), 'Daily Bitcoin up/down thread: post your call for each round here.')
  await take('day3-ada', 'ada', 'btc-up-or-down-day-3', 0, 15, 'ETF inflows again this morning. Up.')
  await take('day3-farah', 'farah', 'btc-up-or-down-day-3', 1, 15, 'Rejected at the same level three times. Down.')

  await take('btc-ada', 'ada', 'btc-150k', 0, 50, "ETF inflows haven't slowed since spring. 38¢ for Yes is cheap.")
  await take('btc-ben', 'ben', 'btc-150k', 1, 120, 'Post-halving rallies top out long before this. Fading it.')
  await say('btc-chloe', 'chloe', 'btc-150k', "Does 'trade above' mean any exchange print or the index close?")
  await reply('btc-chloe-ada', 'ada', 'btc-chloe', 'The rules say a one-minute close on the reference index.')
  await reply('btc-ada-dmitri', 'dmitri', 'btc-ada', 'Inflows are slowing on a 4-week average though.')
  await agree('dmitri', 'btc-ada')
  await agree('emeka', 'btc-ada')
  await agree('emeka', 'btc-ben')

  await take('ethetf-chloe', 'chloe', 'eth-staking-etf', 0, 30, 'The SEC has signalled staking is fine inside a trust. Yes.')
  await take('ethetf-farah', 'farah', 'eth-staking-etf', 1, 18, 'June is too soon for a rule change. No.')
  await agree('ada', 'ethetf-chloe')

  await take('eth4k-dmitri', 'dmitri', 'eth-4k-friday', 0, 22, 'Funding is flat and the options wall sits at 4.2k. Above.')
  await take('eth4k-emeka', 'emeka', 'eth-4k-friday', 1, 16, 'Every push to 4k this month got sold. Below.')
  await reply('eth4k-emeka-ben', 'ben', 'eth4k-emeka', 'Agreed, the 3.9k area is where it stalls.')

  await take('brazil-farah', 'farah', 'brazil-election', 0, 35, 'Approval turned up after the pension reform. Incumbent, Yes.')
  await say('brazil-dmitri', 'dmitri', 'brazil-election', 'Polls this far out have missed by ten points before.')
  await reply('brazil-dmitri-farah', 'farah', 'brazil-dmitri', 'True, which is why Yes at 42¢ is still value.')
  await agree('chloe', 'brazil-farah')

  await take('fed-ben', 'ben', 'fed-cut', 0, 60, 'Two soft payroll prints in a row. They cut.')
  await take('fed-chloe', 'chloe', 'fed-cut', 1, 25, 'Core services inflation is still sticky. They hold.')

  await take('ucl-emeka', 'emeka', 'ucl-final', 1, 40, 'Arsenal have the best defence in Europe this season.')
  await take('ucl-ada', 'ada', 'ucl-final', 0, 20, 'Never bet against Madrid in a final.')
  await reply('ucl-ada-emeka', 'emeka', 'ucl-ada', 'That line has cost people a lot of money lately.')

  await take('tokyo-farah', 'farah', 'tokyo-35c', 0, 14, 'The last three Julys all crossed 35°C before the 25th.')
  await say('tokyo-ada', 'ada', 'tokyo-35c', 'Any good source for the official station readings?')
  await reply('tokyo-ada-farah', 'farah', 'tokyo-ada', 'The JMA site, Tokyo station (Kitanomaru).')

  await onNode('crypto-ben', 'ben', n('category', 'crypto'), 'Weekly crypto thread: what are you trading this week?')
  await reply('crypto-ben-chloe', 'chloe', 'crypto-ben', 'ETH staking ETF, mostly. The rest is noise.')
  await onNode('weather-emeka', 'emeka', n('category', 'weather'), 'Heat season is starting: Tokyo, Phoenix and Delhi markets are up.')

  // --- Follows: who reads what on the following feed.
  await follow('ada', n('category', 'crypto'))
  await follow('ada', n('category', 'sports'))
  await follow('ben', n('category', 'economy'))
  await follow('ben', n('topic', 'bitcoin'))
  await follow('chloe', n('topic', 'ethereum'))
  await follow('chloe', n('category', 'weather'))
  await follow('dmitri', n('country', 'br'))
  await follow('dmitri', n('category', 'crypto'))
  await follow('emeka', n('category', 'sports'))
  await follow('farah', n('category', 'politics'))
  await follow('farah', n('series', 'btc-up-or-down'))

  return { markets, wallets, posts }
}
