/**
 * Demo chrome for the script-tag pages (home, market, room, profile, operator). venuekit itself is only
 * the `<script src="/venuekit.js" data-…>` tag in each page; this module adds the demo's developer bar
 * (demo wallets, dev buys) and fills in the parts of the page that depend on the URL. Demo code.
 */
import './demo.css'
import { mountDevBar, type DevBar } from './dev-bar.ts'
import { mountSiteNav } from './site-nav.ts'
import { parseNodeAttr } from '../../src/elements/shared/node-ref.ts'
import { demoConfig, handleElementRequests, pageMarket, renderMarketHead } from './market.ts'

const vk = window.venuekit
const bar = document.getElementById('demo-bar')
const page = document.body.dataset.page
mountSiteNav()

async function main() {
  if (!vk || !bar) throw new Error('venuekit did not load: /venuekit.js is missing (npm run demo builds it)')
  handleElementRequests()
  let devBar: DevBar
  if (page === 'market') {
    const market = await pageMarket()
    // The page's elements name the default market in plain HTML; `?market=` points them at another one.
    for (const e of document.querySelectorAll('[market-id]')) e.setAttribute('market-id', market.id)
    for (const e of document.querySelectorAll('vk-follow-button[subject-type="event"]')) e.setAttribute('subject-ref', market.id)
    const post = new URLSearchParams(location.search).get('post')
    if (post) document.querySelector('vk-market-comments')?.setAttribute('focus-post-id', post)
    renderMarketHead(document.getElementById('market-head')!, market)
    devBar = mountDevBar(bar, vk, { market, buyHost: document.getElementById('demo-buy') })
  } else {
    devBar = mountDevBar(bar, vk)
  }
  if (page === 'room') await room()
  if (page === 'profile') await profile(devBar)
  if (page === 'home') await marketList()
}

/**
 * The room page: the venue's crypto room (its id exists once the demo has opened it), or `?room=<id|self>`, or
 * with `?node=<type>:<ref>` a taxonomy-node section (every post on the node, with its ranked callers' moves and
 * settled markets). The rail's leaderboard ranks at the room's node, where the discussion's record chips are
 * read, so their ranks agree.
 */
async function room() {
  const cfg = await demoConfig()
  const q = new URLSearchParams(location.search)
  const feed = document.querySelector('vk-room-feed')!
  const node = parseNodeAttr(q.get('node'))
  if (node) return nodeSection(feed, node.type, node.ref)
  const id = q.get('room') ?? cfg.roomId
  feed.setAttribute('room-id', id)
  // A room that is not found says so in the feed; the rail then stays on the crypto category.
  const room = (await vk!.client!.rooms.membership(id).catch(() => null))?.room
  if (!room) return
  document.querySelector('vk-mini-leaderboard')!.setAttribute('scope', `${room.subject.type}:${room.subject.ref}`)
  const name = room.title ?? room.subject.ref
  document.getElementById('rail-title')!.textContent = `Leaderboard: ${name}`
  if (room.id === cfg.roomId) return
  document.querySelector('.hero h1')!.textContent = name
  const back = Object.assign(document.createElement('a'), { href: '/room.html', textContent: 'the crypto room' })
  document.querySelector('.hero p')!.replaceChildren(`A room of ${room.venueId} on the ${room.subject.type} ${room.subject.ref}. (Back to `, back, ')')
}

/** `/room.html?node=category:crypto`: the room feed as the node's section (§4.4: `<RoomFeed subject>`), no room. */
function nodeSection(feed: Element, type: string, ref: string) {
  feed.removeAttribute('room-id')
  feed.setAttribute('subject-type', type)
  feed.setAttribute('subject-ref', ref)
  document.querySelector('vk-mini-leaderboard')!.setAttribute('scope', `${type}:${ref}`)
  document.getElementById('rail-title')!.textContent = `Leaderboard: ${ref}`
  document.querySelector('.hero h1')!.textContent = `The ${ref} ${type}`
  const back = Object.assign(document.createElement('a'), { href: '/room.html', textContent: 'the crypto room' })
  document
    .querySelector('.hero p')!
    .replaceChildren(`Every post on the ${ref} ${type}, ranked by record, with its ranked callers' moves and its settled markets. (Back to `, back, ')')
}

/** The profile page: `?wallet=0x…` or `?handle=ben`, else the signed-in wallet, else Ada. */
async function profile(devBar: DevBar) {
  const cfg = await demoConfig()
  const q = new URLSearchParams(location.search)
  const el = document.querySelector('vk-author-takes')!
  const pick = () => {
    const byHandle = cfg.wallets.find((w) => w.handle === q.get('handle'))
    const wallet = q.get('wallet') ?? byHandle?.address ?? devBar.wallet ?? cfg.wallets[0].address
    el.setAttribute('wallet', wallet)
    if (devBar.wallet) el.setAttribute('viewer', devBar.wallet)
    else el.removeAttribute('viewer')
    const who = cfg.wallets.find((w) => w.address === wallet.toLowerCase())
    document.getElementById('profile-name')!.textContent = who ? who.name : wallet
  }
  pick()
  await devBar.ready
  pick()
  bar!.addEventListener('demo-wallet-change', pick)
  const list = document.getElementById('people')!
  list.replaceChildren(
    ...cfg.wallets.map((w) => {
      const a = document.createElement('a')
      a.href = `/profile.html?handle=${w.handle}`
      a.textContent = w.name
      const li = document.createElement('li')
      li.append(a)
      return li
    }),
  )
}

/** The home page's market list (titles from the service). */
async function marketList() {
  const cfg = await demoConfig()
  const ids = Object.values(cfg.markets)
  const r = await fetch(`/v1/markets?ids=${ids.join(',')}`)
  const { markets } = (await r.json()) as { markets: Record<string, { title: string; result: unknown }> }
  const list = document.getElementById('markets')!
  list.replaceChildren(
    ...Object.entries(cfg.markets).map(([slug, id]) => {
      const li = document.createElement('li')
      const a = document.createElement('a')
      a.href = `/market.html?market=${slug}`
      a.textContent = markets[id]?.title ?? slug
      li.append(a)
      return li
    }),
  )
}

main().catch((e) => {
  console.error(e)
  if (bar) bar.textContent = `Demo failed to start: ${(e as Error).message}`
})
