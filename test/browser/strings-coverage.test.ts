/**
 * Strings coverage (§4.4 rule 7, issue 6 rule 7; the product standard "Every visible string can be replaced
 * through the strings provider. Numbers and times are formatted with Intl."): every element, in every state
 * the running reference service can put it in, is mounted under a `<vk-strings-provider>` whose every key of
 * every slice is replaced by a marker (`⟦key⟧`, built from the English tables, so a new key is covered without
 * editing this file; placeholders and plurals are kept). Then every text node and every user-facing attribute
 * of its shadow DOM (and of the custom elements it draws, recursively) must be a marker's string, user content
 * from the service's answers (bodies, titles, outcome labels, names, wallets, node refs, report reasons), or
 * Intl's output (numbers, percents, relative and absolute times). A word left over is a hard-coded string.
 * Every control (button, link, field, `[tabindex]`) must have an accessible name that is a marker's string or
 * user content.
 */
import { expect, fixture, html } from '@open-wc/testing'
import { sendKeys } from '@web/test-runner-commands'
import type { TemplateResult } from 'lit'
import '../../src/elements/index.ts'
import '../../src/elements/strings-provider/strings-provider.ts'
import '../../src/elements/moderation-queue/moderation-queue.ts'
import '../../src/elements/platform-provider/platform-provider.ts'
import { commentsEn } from '../../src/elements/shared/strings/comments.en.ts'
import { roomEn } from '../../src/elements/shared/strings/room.en.ts'
import { moderationEn } from '../../src/elements/shared/strings/moderation.en.ts'
import type { Post } from '../../src/contract/types.ts'
import { freshRef } from '../sdk/harness.ts'
import { deep, deepText, disposeVk, isPath, makeVk, nodeFeed, service, setProfile, until, withSignals } from './elements-env.ts'

// ---------------------------------------------------------------------------------------------------------
// The marker tables: every key of every slice, its English words dropped, its placeholders and plurals kept.

/** The index of the `}` closing the `{` at `start`. */
function closing(s: string, start: number): number {
  let depth = 0
  for (let i = start; i < s.length; i++) {
    if (s[i] === '{') depth++
    else if (s[i] === '}' && --depth === 0) return i
  }
  return s.length - 1
}

/** A template without its words: `{name}` placeholders and `{n, plural, one {#} …}` cases (with `#` where it was). */
function placeholdersOf(template: string): string {
  let out = ''
  for (let open = template.indexOf('{'); open >= 0; open = template.indexOf('{', open)) {
    const end = closing(template, open)
    const inner = template.slice(open + 1, end)
    const comma = inner.indexOf(',')
    if (comma < 0) out += ` {${inner.trim()}}`
    else {
      const name = inner.slice(0, comma).trim()
      const rest = inner.slice(comma + 1)
      const body = rest.slice(rest.indexOf(',') + 1)
      let cases = ''
      const re = /\s*(=?\w+)\s*\{/g
      let m: RegExpExecArray | null
      while ((m = re.exec(body))) {
        const s = m.index + m[0].length - 1
        const e = closing(body, s)
        const caseBody = body.slice(s + 1, e)
        cases += ` ${m[1]} {${caseBody.replace(/\{[^}]*\}/g, '').includes('#') ? '#' : ''}${placeholdersOf(caseBody)}}`
        re.lastIndex = e + 1
      }
      out += ` {${name}, plural,${cases}}`
    }
    open = end + 1
  }
  return out
}

const markSlice = <T extends object>(slice: T): T =>
  Object.fromEntries(Object.entries(slice).map(([k, v]) => [k, `⟦${k}⟧${placeholdersOf(String(v))}`])) as T
const MARKED = { comments: markSlice(commentsEn), room: markSlice(roomEn), moderation: markSlice(moderationEn) }
const MARKER = /⟦[A-Za-z0-9_]+⟧/g
/** Not global (a global regex's `test` keeps its place between calls). */
const HAS_MARKER = /⟦[A-Za-z0-9_]+⟧/

// ---------------------------------------------------------------------------------------------------------
// User content: every string of the service's answers under a key that carries what people wrote or named.

const CONTENT_KEYS = new Set(['title', 'label', 'displayLabel', 'name', 'body', 'wallet', 'author', 'subjectRef', 'ref', 'by', 'actor', 'reasons', 'reason', 'wallets'])
const userContent = new Set<string>()
const shortWallet = (w: string) => (w.length > 12 ? `${w.slice(0, 6)}…${w.slice(-4)}` : w)
function addContent(s: string) {
  const v = s.trim()
  if (!v || v.length > 2000) return
  userContent.add(v)
  // What an element derives from it: a shortened wallet, an avatar's initial.
  if (/^0x[0-9a-f]{12,}$/i.test(v)) userContent.add(shortWallet(v))
  const initial = [...v.replace(/^0x/i, '')][0]?.toUpperCase()
  if (initial && /\p{L}/u.test(initial)) userContent.add(initial)
}
function collect(x: unknown, key = '') {
  if (typeof x === 'string') {
    // A report reason (`reason` on a moderation item, `reasons`) is what a reader wrote; a for-you `reason` is a code.
    if (CONTENT_KEYS.has(key) && !(key === 'reason' && /^[a-z-]+$/.test(x))) addContent(x)
  } else if (Array.isArray(x)) x.forEach((v) => collect(v, key))
  // A page's `titles` and `labels` are keyed by market id: each value is a market's title, or its outcome labels.
  else if (x && typeof x === 'object' && (key === 'titles' || key === 'labels')) for (const v of Object.values(x)) collect(v, key.slice(0, -1))
  else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) if (k !== 'error') collect(v, k)
}
const realFetch = globalThis.fetch.bind(globalThis)
// The answer's content is collected before the caller sees the answer: collected alongside, a page drawn from a long
// answer (the global feed, holding every test file's posts) could be walked before its content was known.
globalThis.fetch = async (input, init) => {
  const r = await realFetch(input, init)
  if ((r.headers.get('content-type') ?? '').includes('json')) collect(await r.clone().json().catch(() => null))
  return r
}

// ---------------------------------------------------------------------------------------------------------
// Intl's output: relative times, dates, numbers (digits are compared as `#`).

const digitless = (s: string) => s.replace(/\d+(?:[.,\u00a0\u202f]\d+)*/g, '#').replace(/\s+/g, ' ')
const INTL = (() => {
  const out = new Set<string>()
  const units: Intl.RelativeTimeFormatUnit[] = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second']
  for (const locale of [undefined, 'en'])
    for (const numeric of ['auto', 'always'] as const)
      for (const style of ['long', 'short', 'narrow'] as const) {
        const rtf = new Intl.RelativeTimeFormat(locale, { numeric, style })
        for (const u of units) for (const n of [-12, -2, -1, 0, 1, 2, 12]) out.add(digitless(rtf.format(n, u)))
      }
  for (const locale of [undefined, 'en'])
    for (let m = 0; m < 12; m++)
      for (const h of [1, 13]) {
        const d = new Date(2024, m, 15, h, 5)
        out.add(digitless(new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(d)))
        out.add(digitless(new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(d)))
      }
  return [...out].filter((s) => /\p{L}/u.test(s)).sort((a, b) => b.length - a.length)
})()

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** What is left of `s` once markers, user content (whole words only) and Intl's output are taken out. */
function leftover(s: string): string {
  let r = ` ${s.replace(MARKER, ' ')} `
  for (const u of [...userContent].sort((a, b) => b.length - a.length))
    if (r.includes(u)) r = r.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escape(u)}(?![\\p{L}\\p{N}])`, 'gu'), ' ')
  r = digitless(r)
  for (const i of INTL) if (r.includes(i)) r = r.split(i).join(' ')
  return r.replace(/\s+/g, ' ').trim()
}
const hasWords = (s: string) => /\p{L}/u.test(leftover(s))

// ---------------------------------------------------------------------------------------------------------
// The walk.

const ATTRS = ['aria-label', 'aria-description', 'aria-roledescription', 'aria-valuetext', 'aria-placeholder', 'title', 'placeholder', 'alt', 'label']
const CONTROLS = 'button, a[href], input, textarea, select, [role="button"], [role="tab"], [role="link"], [tabindex]'

interface Finding {
  element: string
  state: string
  kind: string
  text: string
  at: string
}
const found: Finding[] = []
const notes = new Set<string>()

/** The element whose shadow root holds `n` (the one that drew it). */
const drawnBy = (n: Node) => ((n.getRootNode() as ShadowRoot).host?.localName ?? 'page')
const describe_ = (el: Element) => el.outerHTML.replace(/<!--[^>]*-->/g, '').replace(/\s+/g, ' ').slice(0, 140)

/** Text a reader gets from `n` (through shadow roots, leaving out aria-hidden parts). */
function nameText(n: Node): string {
  if (n.nodeType === Node.TEXT_NODE) return n.textContent ?? ''
  if (!(n instanceof Element)) return ''
  if (n.getAttribute('aria-hidden') === 'true' || ['STYLE', 'SCRIPT', 'TEMPLATE'].includes(n.tagName)) return ''
  const kids = n.shadowRoot ? [...n.shadowRoot.childNodes] : n instanceof HTMLSlotElement ? n.assignedNodes({ flatten: true }) : [...n.childNodes]
  return kids.map(nameText).join(' ')
}

/** An approximation of the accessible name (aria-labelledby, aria-label, a field's label, content, title). */
function accessibleName(el: Element): string {
  const root = el.getRootNode() as ShadowRoot | Document
  const by = el.getAttribute('aria-labelledby')
  if (by)
    return by
      .split(/\s+/)
      .map((id) => root.getElementById(id))
      .map((l) => (l ? nameText(l) : ''))
      .join(' ')
      .trim()
  const label = el.getAttribute('aria-label')?.trim()
  if (label) return label
  const labels = (el as HTMLInputElement).labels
  if (labels?.length) return [...labels].map(nameText).join(' ').trim()
  const text = nameText(el).replace(/\s+/g, ' ').trim()
  return text || el.getAttribute('title')?.trim() || el.getAttribute('placeholder')?.trim() || ''
}

/** Strings from the provider the current walk met (a walk that meets none looked at nothing). */
let seen = 0

function visit(n: Node, state: string, out: Finding[]) {
  if (n.nodeType === Node.TEXT_NODE) {
    const t = (n.textContent ?? '').trim()
    if (!t || ['STYLE', 'SCRIPT', 'TEMPLATE'].includes(n.parentElement?.tagName ?? '')) return
    if (HAS_MARKER.test(t)) seen++
    if (hasWords(t)) out.push({ element: drawnBy(n), state, kind: 'text', text: t, at: describe_(n.parentElement!) })
    else if (!HAS_MARKER.test(t) && !/\d/.test(t) && leftover(t)) notes.add(`${drawnBy(n)}: text "${t}" (punctuation only, not from the strings) in ${describe_(n.parentElement!)}`)
    return
  }
  if (!(n instanceof Element)) return
  if (['STYLE', 'SCRIPT', 'TEMPLATE'].includes(n.tagName)) return
  for (const a of ATTRS) {
    const v = n.getAttribute(a)?.trim()
    if (v && HAS_MARKER.test(v)) seen++
    if (v && hasWords(v)) out.push({ element: drawnBy(n), state, kind: `[${a}]`, text: v, at: describe_(n) })
  }
  for (const pseudo of ['::before', '::after']) {
    const c = getComputedStyle(n, pseudo).content
    if (c && c !== 'none' && c !== 'normal' && /\p{L}/u.test(c)) out.push({ element: drawnBy(n), state, kind: `${pseudo} content`, text: c, at: describe_(n) })
  }
  if (n.matches(CONTROLS) && !(n as HTMLButtonElement).disabled && (n as HTMLInputElement).type !== 'hidden') {
    const name = accessibleName(n)
    const fromStrings = HAS_MARKER.test(name)
    const fromContent = !!name && !hasWords(name) && leftover(name) !== name.replace(/\s+/g, ' ').trim()
    if (!name) out.push({ element: drawnBy(n), state, kind: 'control without a name', text: '', at: describe_(n) })
    else if (!fromStrings && !fromContent && !hasWords(name)) out.push({ element: drawnBy(n), state, kind: 'control named by neither the strings nor user content', text: name, at: describe_(n) })
  }
  if (n.shadowRoot) n.shadowRoot.childNodes.forEach((c) => visit(c, state, out))
  n.childNodes.forEach((c) => visit(c, state, out))
}

/**
 * Walks `el`'s shadow DOM (and every custom element's below it) for `state`; records and returns what is
 * hard-coded. The walk must meet strings from the provider (`blank`: a state that draws nothing, e.g. a closed prompt).
 */
function audit(el: Element, state: string, o: { blank?: boolean } = {}): Finding[] {
  const out: Finding[] = []
  expect(el.shadowRoot, `<${el.localName}> has a shadow root`).to.not.equal(null)
  seen = 0
  el.shadowRoot!.childNodes.forEach((c) => visit(c, `<${el.localName}> ${state}`, out))
  if (!o.blank) expect(seen, `<${el.localName}> ${state}: the walk met no string from the provider`).to.be.greaterThan(0)
  found.push(...out)
  return out
}

/** Fails with every hard-coded string and unnamed control the test's audits found. */
function expectNoHardCoded(list: Finding[]) {
  const lines = list.map((f) => `${f.state} — <${f.element}> ${f.kind}: "${f.text}" at ${f.at}`)
  expect(lines, `hard-coded strings or unnamed controls:\n${lines.join('\n')}\n`).to.deep.equal([])
}

/**
 * Mounts `inner` under the marker provider and returns the element `selector` names. What the page passes it
 * (subject refs, scopes, wallets) is the page's content, as what the service answers is.
 */
async function mount<E extends Element = HTMLElement>(inner: TemplateResult, selector: string): Promise<E> {
  const root = await fixture(html`<vk-strings-provider .strings=${MARKED}>${inner}</vk-strings-provider>`)
  const el = root.querySelector<E>(selector)!
  for (const a of ['subject-ref', 'scope', 'wallet', 'market-id', 'room-id', 'venue-id', 'outcome-label', 'market-title']) {
    const v = el.getAttribute(a)
    // A scope is `<type>:<ref>`: its ref is the page's (its type, like `global`, is a keyword, not content).
    if (v?.includes(':') || (v && a !== 'scope')) addContent(v.split(':').pop()!)
  }
  return el
}
const part = (el: Element, name: string) => deep<HTMLElement>(el, `[part~="${name}"]`)
/** Whether `el` shows a marker's string yet (text anywhere below it, through shadow roots). */
const marked = (el: Element) => HAS_MARKER.test(deepText(el))

describe('strings coverage: every visible string comes from the strings provider, user content or Intl', () => {
  afterEach(() => disposeVk())
  after(() => {
    // For the audit's report: what was found over the whole file, and the punctuation drawn without a string.
    if (found.length) console.log(`[strings-coverage] findings:\n${found.map((f) => `${f.state} — <${f.element}> ${f.kind}: "${f.text}"`).join('\n')}`)
    if (notes.size) console.log(`[strings-coverage] notes:\n${[...notes].join('\n')}`)
  })

  it('the marker table covers every key of every slice, keeps placeholders and plurals, and has no English words left', () => {
    for (const [slice, en] of Object.entries({ comments: commentsEn, room: roomEn, moderation: moderationEn })) {
      const m = MARKED[slice as keyof typeof MARKED] as Record<string, string>
      expect(Object.keys(m).sort(), slice).to.deep.equal(Object.keys(en).sort())
      for (const [k, v] of Object.entries(m)) {
        expect(v.startsWith(`⟦${k}⟧`), k).to.equal(true)
        expect(v.replace(MARKER, '').replace(/\{[a-zA-Z]+|plural|=?\b(?:zero|one|two|few|many|other)\b/g, ''), k).to.not.match(/\p{L}/u)
      }
    }
    expect(MARKED.comments.agreeCount).to.equal('⟦agreeCount⟧ {count, plural, =0 {} one {#} other {#}}')
    expect(leftover('⟦post⟧')).to.equal('')
    expect(hasWords('3 hours ago')).to.equal(false)
    expect(hasWords('Try again')).to.equal(true)
  })

  it('§4.4 rule 7 "the kit accepts a strings provider": <vk-market-comments> loading, empty, signed out and in, loaded, reply, edit, delete, report, failures, error with Retry', async () => {
    const vk = await makeVk({ moderation: true })
    const s = await service()
    const m = await s.addMarket()
    const list: Finding[] = []
    // Loading skeleton, then empty (signed out: the sign-in hint).
    const release = vk.faults.hold(isPath('/v1/social/posts'))
    let el = await mount(html`<vk-market-comments market-id=${m.id}></vk-market-comments>`, 'vk-market-comments')
    await until(() => part(el, 'loading'), 'the skeleton')
    list.push(...audit(el, 'loading'))
    release()
    await until(() => part(el, 'empty'), 'empty')
    list.push(...audit(el, 'empty, signed out'))
    // Error with Retry.
    const off = vk.faults.fail(isPath('/v1/social/posts'))
    el = await mount(html`<vk-market-comments market-id=${(await s.addMarket()).id}></vk-market-comments>`, 'vk-market-comments')
    await until(() => part(el, 'retry'), 'the error state')
    list.push(...audit(el, 'error with Retry'))
    off()
    // Loaded: another's post with a stance, a reply, an edit; the reader's own post.
    // (Another market: the first one's thread is the page's and already read.)
    const m2 = await s.addMarket()
    const other = await s.signedIn()
    await setProfile(other.session!.token, { name: 'Olu Other' })
    await s.setPosition(other.w.wallet, m2.id, 0, '2500000')
    const take = await other.createPost('event', m2.id, 'a take with a stance')
    await other.createPost('event', m2.id, 'a reply', take.id)
    const edited = await other.createPost('event', m2.id, 'before edit')
    await other.editPost(edited.id, 'after edit')
    const me = s.wallet()
    await vk.signIn(me)
    const mine = await vk.client.createPost('event', m2.id, 'my own post')
    el = await mount(html`<vk-market-comments market-id=${m2.id} viewer=${me.wallet}></vk-market-comments>`, 'vk-market-comments')
    await until(() => deep(el, `#vk-post-${mine.id}`) && deep(el, `#vk-post-${take.id}`) && part(deep(el, `#vk-post-${take.id} vk-take-card`)!, 'stance'), 'the posts')
    list.push(...audit(el, 'loaded, signed in'))
    // Reply composer (opened from the keyboard), with a failed send.
    const card = deep(el, `#vk-post-${take.id} vk-take-card`)!
    part(card, 'reply')!.focus()
    await sendKeys({ press: 'Enter' })
    await until(() => part(card, 'composer'), 'the reply form')
    const offPost = vk.faults.fail(isPath('/v1/social/posts', 'POST'))
    deep<HTMLTextAreaElement>(card, '[part~="composer"] textarea')!.value = 'x'
    deep<HTMLTextAreaElement>(card, '[part~="composer"] textarea')!.dispatchEvent(new Event('input'))
    part(card, 'submit')!.click()
    await until(() => part(card, 'failure'), 'the reply failed')
    list.push(...audit(el, 'reply form, send failed'))
    offPost()
    // A failed Agree.
    const offAgree = vk.faults.fail(isPath('/reactions', 'POST'))
    part(card, 'agree')!.click()
    await until(() => deep(card, '[part~="notice"].failure'), 'the agree failed')
    list.push(...audit(el, 'agree failed'))
    offAgree()
    // Report form.
    part(card, 'report')!.click()
    await until(() => deep(card, `[part~="composer"] textarea`), 'the report form')
    list.push(...audit(el, 'report form'))
    // Edit and delete on the reader's own post.
    const own = deep(el, `#vk-post-${mine.id} vk-take-card`)!
    part(own, 'edit')!.click()
    await until(() => deep(own, '[part~="composer"] textarea'), 'the edit form')
    list.push(...audit(el, 'edit form'))
    part(own, 'cancel')!.click()
    part(own, 'delete')!.click()
    await until(() => deep(own, '[part~="composer"][role="group"]'), 'the delete confirmation')
    list.push(...audit(el, 'delete confirmation'))
    part(own, 'submit')!.click()
    await until(() => part(own, 'notice'), 'deleted')
    list.push(...audit(el, 'post deleted'))
    await expect(el).to.be.accessible()
    expectNoHardCoded(list)
  })

  it('§4.4 rule 7: <vk-comments> (topic) with a new-posts bar, Load more, and a reported post', async () => {
    const vk = await makeVk({ moderation: true })
    const s = await service()
    const ref = freshRef('topic')
    const a = await s.signedIn()
    for (const b of ['one', 'two', 'three']) await a.createPost('topic', ref, b)
    await vk.signIn(s.wallet())
    const el = await mount(html`<vk-comments subject-type="topic" subject-ref=${ref} .limit=${2}></vk-comments>`, 'vk-comments')
    await until(() => part(el, 'more'), 'Load more')
    const list = audit(el, 'loaded with Load more')
    await a.createPost('topic', ref, 'four')
    await until(() => part(el, 'new-bar') && marked(part(el, 'new-bar')!), 'the new-posts bar', 10_000).catch(() => {})
    list.push(...audit(el, 'new-posts bar (when the stream delivers it)'))
    const card = deep(el, 'vk-take-card')!
    part(card, 'report')!.click()
    await until(() => deep(card, 'textarea'), 'the report form')
    deep<HTMLTextAreaElement>(card, 'textarea')!.value = 'spam'
    deep<HTMLTextAreaElement>(card, 'textarea')!.dispatchEvent(new Event('input'))
    part(card, 'submit')!.click()
    await until(() => deep(card, '[part~="notice"][role="status"]'), 'reported')
    list.push(...audit(el, 'reported'))
    // A later page that fails: the failure line with Retry under the rows.
    const off = vk.faults.fail(isPath('/v1/social/posts'))
    part(el, 'more')!.click()
    await until(() => part(el, 'retry'), 'the later page failed')
    list.push(...audit(el, 'Load more failed'))
    off()
    expectNoHardCoded(list)
  })

  it('§4.4 rule 7: <vk-take-card> standalone — stance, receipts (right, wrong), read-only, Tail, hidden, edited, an unknown side, a market line', async () => {
    await makeVk({ checkout: { openCheckout: () => {} } })
    const s = await service()
    const m = await s.addMarket({ prices: [4000, 6000], decimals: 6 })
    const right = await s.signedIn()
    await s.setPosition(right.w.wallet, m.id, 0, '1000000')
    const p1 = await right.createPost('event', m.id, 'right call')
    const wrong = await s.signedIn()
    await s.setPosition(wrong.w.wallet, m.id, 1, '1000000')
    const p2 = await wrong.createPost('event', m.id, 'wrong call')
    await s.resolve(m.id, 0)
    const open = await s.addMarket({ prices: [4000, 6000] })
    const holder = await s.signedIn()
    await s.setPosition(holder.w.wallet, open.id, 1, '1000000')
    const p3: Post = { ...(await holder.createPost('event', open.id, 'open take')), hidden: true, fromSeries: true, editedAt: new Date().toISOString() }
    // A void market, and an order-book (CLOB) market with no close: awaiting settlement.
    const voided = await s.addMarket()
    await s.setPosition(holder.w.wallet, voided.id, 0, '1000')
    const p4 = await holder.createPost('event', voided.id, 'void take')
    await s.resolve(voided.id, 'void')
    const clob = await s.addMarket({ clob: true, closesAt: null })
    await s.setPosition(holder.w.wallet, clob.id, 0, '1000')
    const p5 = await holder.createPost('event', clob.id, 'clob take')
    const unknownSide: Post = { ...p3, id: `${p3.id}x`, subjectRef: `0x${'ee'.repeat(32)}`, stance: { ...p3.stance!, side: 4, priceBps: null } }
    const root = await fixture(html`<vk-strings-provider .strings=${MARKED}>
      <vk-take-card .post=${p1} show-market></vk-take-card>
      <vk-take-card .post=${p2} read-only></vk-take-card>
      <vk-take-card .post=${p3} show-market market-title=${open.title}></vk-take-card>
      <vk-take-card .post=${unknownSide}></vk-take-card>
      <vk-take-card .post=${{ ...p1, record: null }} .onTail=${() => {}}></vk-take-card>
      <vk-take-card .post=${p4}></vk-take-card>
      <vk-take-card .post=${p5}></vk-take-card>
    </vk-strings-provider>`)
    const cards = [...root.querySelectorAll('vk-take-card')]
    await until(() => part(cards[0], 'receipt') && part(cards[1], 'receipt') && part(cards[0], 'market') && part(cards[2], 'tail') && part(cards[5], 'receipt') && part(cards[6], 'receipt'), 'receipts, market line, Tail')
    const list = cards.flatMap((c, i) => audit(c, ['right, market line', 'wrong, read-only', 'hidden, from series, edited, Tail', 'unknown side and price', 'record unavailable, onTail', 'void receipt', 'CLOB, awaiting settlement'][i]))
    await expect(root).to.be.accessible()
    expectNoHardCoded(list)
  })

  it('§4.4 rule 7: <vk-feed> and <vk-community-takes> — loading, loaded with signals and settlements, sorted by record, fallback notice, sign-in hint, empty, error', async () => {
    const vk = await makeVk()
    const f = await withSignals()
    const list: Finding[] = []
    const release = vk.faults.hold(isPath('/feed'))
    const feed = await mount(html`<vk-feed scope="subject" subject-type="category" subject-ref=${f.ref}></vk-feed>`, 'vk-feed')
    await until(() => part(feed, 'loading'), 'the skeleton')
    list.push(...audit(feed, 'loading'))
    release()
    await until(() => deep(feed, `#vk-post-${f.take.id}`) && part(deep(feed, `#vk-post-${f.settledTake.id} vk-take-card`) ?? feed, 'receipt'), 'the posts')
    list.push(...audit(feed, 'loaded'))
    const takes = await mount(html`<vk-community-takes scope="subject" subject-type="category" subject-ref=${f.ref} sort="live"></vk-community-takes>`, 'vk-community-takes')
    await until(() => part(takes, 'signal-row') && part(takes, 'settlement'), 'signal rows')
    list.push(...audit(takes, 'live, signal rows'))
    const byRecord = await mount(html`<vk-community-takes scope="subject" subject-type="category" subject-ref=${f.ref} sort="record"></vk-community-takes>`, 'vk-community-takes')
    await until(() => part(byRecord, 'sort-label') && part(deep(byRecord, 'vk-record-chip') ?? byRecord, 'chip'), 'sorted by record')
    list.push(...audit(byRecord, 'sorted by record'))
    const fallback = await mount(html`<vk-community-takes scope="following" empty-fallback="global" sort="live"></vk-community-takes>`, 'vk-community-takes')
    await until(() => marked(fallback) && !part(fallback, 'loading'), 'the signed-out fallback')
    list.push(...audit(fallback, 'following, signed out, with fallback'))
    const hint = await mount(html`<vk-community-takes scope="following" sort="live"></vk-community-takes>`, 'vk-community-takes')
    await until(() => marked(hint) && !part(hint, 'loading'), 'the signed-out hint')
    list.push(...audit(hint, 'following, signed out'))
    const empty = await mount(html`<vk-feed scope="subject" subject-type="category" subject-ref=${freshRef('empty')}></vk-feed>`, 'vk-feed')
    await until(() => part(empty, 'empty'), 'empty')
    list.push(...audit(empty, 'empty'))
    await vk.signIn(f.s.wallet())
    const emptyFollowing = await mount(html`<vk-community-takes scope="following" empty-fallback="global" sort="live"></vk-community-takes>`, 'vk-community-takes')
    await until(() => marked(emptyFollowing) && !part(emptyFollowing, 'loading'), 'following nothing, with fallback')
    list.push(...audit(emptyFollowing, 'following nothing, signed in, with fallback'))
    const off = vk.faults.fail(isPath('/feed'))
    const failed = await mount(html`<vk-feed scope="subject" subject-type="category" subject-ref=${freshRef('err')}></vk-feed>`, 'vk-feed')
    const failedTakes = await mount(html`<vk-community-takes scope="subject" subject-type="category" subject-ref=${freshRef('err')}></vk-community-takes>`, 'vk-community-takes')
    await until(() => part(failed, 'retry') && part(failedTakes, 'retry'), 'the error states')
    list.push(...audit(failed, 'error with Retry'), ...audit(failedTakes, 'error with Retry'))
    off()
    await expect(takes).to.be.accessible()
    expectNoHardCoded(list)
  })

  it('§4.4 rule 7: <vk-take-count> (some, none, failed) and <vk-for-you-rail> (signed out, empty, picks, failed)', async () => {
    const vk = await makeVk()
    const f = await nodeFeed()
    const list: Finding[] = []
    const count = await mount(html`<vk-take-count market-id=${f.a.id}></vk-take-count>`, 'vk-take-count')
    const none = await mount(html`<vk-take-count market-id=${(await f.s.addMarket()).id}></vk-take-count>`, 'vk-take-count')
    await until(() => marked(count) && marked(none), 'counts')
    list.push(...audit(count, 'one take'), ...audit(none, 'no takes'))
    const offCount = vk.faults.fail(isPath('/take-counts'))
    const failedCount = await mount(html`<vk-take-count market-id=${(await f.s.addMarket()).id}></vk-take-count>`, 'vk-take-count')
    await new Promise((r) => setTimeout(r, 300))
    // Null while loading and after a failure: it prints nothing (§4.5.4).
    list.push(...audit(failedCount, 'read failed', { blank: true }))
    expect(deepText(failedCount)).to.equal('')
    offCount()
    const out = await mount(html`<vk-for-you-rail subject-type="category" subject-ref=${f.ref}></vk-for-you-rail>`, 'vk-for-you-rail')
    await until(() => marked(out) && !part(out, 'loading'), 'signed-out rail')
    list.push(...audit(out, 'signed out'))
    await vk.signIn(f.caller.w)
    const picks = await mount(html`<vk-for-you-rail subject-type="category" subject-ref=${f.ref}></vk-for-you-rail>`, 'vk-for-you-rail')
    await until(() => marked(picks) && !part(picks, 'loading'), 'signed-in rail')
    list.push(...audit(picks, part(picks, 'reason') ? 'picks' : 'signed in, no picks'))
    const off = vk.faults.fail(isPath('/for-you'))
    const failed = await mount(html`<vk-for-you-rail subject-type="category" subject-ref=${freshRef('fy')}></vk-for-you-rail>`, 'vk-for-you-rail')
    await until(() => part(failed, 'retry'), 'the error state')
    list.push(...audit(failed, 'error with Retry'))
    off()
    expectNoHardCoded(list)
  })

  it('§4.4 rule 7: <vk-room-feed> — signed out, join card, member with Leave, posts, closing soon, not found, error, a refused post', async () => {
    const vk = await makeVk()
    const s = await service()
    const v = await s.venue()
    const node = freshRef('room')
    const roomId = await s.room(v, { type: 'category', ref: node })
    await s.addMarket({ title: 'Closes tomorrow in the room', nodes: [{ type: 'category', ref: node }], closesAt: new Date(Date.now() + 86_400_000).toISOString() })
    const list: Finding[] = []
    const release = vk.faults.hold(isPath('/v1/social/for-you'))
    const out = await mount(html`<vk-room-feed room-id=${roomId} sort="record"></vk-room-feed>`, 'vk-room-feed')
    await until(() => part(out, 'closing-soon') && part(part(out, 'closing-soon')!, 'loading'), 'the rail loading')
    list.push(...audit(out, 'signed out, rail loading'))
    release()
    await until(() => part(out, 'market'), 'closing soon')
    list.push(...audit(out, 'signed out, closing soon'))
    await vk.signIn({ ...s.wallet(), venueId: v.venueId })
    const el = await mount(html`<vk-room-feed room-id=${roomId}></vk-room-feed>`, 'vk-room-feed')
    await until(() => part(el, 'join-card'), 'the join card')
    list.push(...audit(el, 'non-member, join card'))
    // A post refused (not a member): the spec's sentence and "Join and post".
    const offJoin = vk.faults.fail(isPath('/join', 'POST'), 403)
    part(el, 'join')!.click()
    await until(() => part(el, 'refusal') || !part(el, 'join-card'), 'the join answered')
    list.push(...audit(el, 'join failed'))
    offJoin()
    if (part(el, 'join')) part(el, 'join')!.click()
    await until(() => part(el, 'leave'), 'a member')
    const ta = deep<HTMLTextAreaElement>(el, '#vk-room-composer')!
    ta.value = 'hello room'
    ta.dispatchEvent(new Event('input'))
    part(el, 'submit')!.click()
    await until(() => deep(el, 'vk-take-card'), 'the post')
    list.push(...audit(el, 'member, with a post'))
    const offPost = vk.faults.fail(isPath('/v1/social/posts', 'POST'))
    ta.value = 'fails'
    ta.dispatchEvent(new Event('input'))
    part(el, 'submit')!.click()
    await until(() => part(el, 'failure') || part(el, 'refusal'), 'the post failed')
    list.push(...audit(el, 'post failed'))
    offPost()
    part(el, 'leave')!.click()
    await until(() => part(el, 'join-card'), 'left')
    list.push(...audit(el, 'left the room'))
    const missing = await mount(html`<vk-room-feed room-id=${freshRef('nope')}></vk-room-feed>`, 'vk-room-feed')
    await until(() => part(missing, 'not-found') || part(missing, 'retry'), 'not found')
    list.push(...audit(missing, 'not found'))
    const off = vk.faults.fail(isPath('/feed'))
    const other = await s.room(v, { type: 'category', ref: freshRef('room') })
    const failed = await mount(html`<vk-room-feed room-id=${other}></vk-room-feed>`, 'vk-room-feed')
    await until(() => part(failed, 'retry'), 'the error state')
    list.push(...audit(failed, 'error with Retry'))
    off()
    expectNoHardCoded(list)
  })

  it('§4.4 rule 7: <vk-take-prompt> in <vk-platform-provider> — closed, open after a buy, other side, post failed', async () => {
    Object.keys(localStorage)
      .filter((k) => k.startsWith('vk:take-prompt'))
      .forEach((k) => localStorage.removeItem(k))
    const vk = await makeVk()
    const s = await service()
    const w = s.wallet()
    await vk.signIn(w)
    const market = await s.addMarket({ prices: [4000, 6000] })
    await s.setPosition(w.wallet, market.id, 1, '2500')
    const root = await fixture(html`<vk-strings-provider .strings=${MARKED}
      ><vk-platform-provider .venuekit=${vk}><vk-take-prompt></vk-take-prompt></vk-platform-provider
    ></vk-strings-provider>`)
    const provider = root.querySelector('vk-platform-provider')!
    const el = root.querySelector('vk-take-prompt')!
    const list = [...audit(provider, 'holding a prompt', { blank: true }), ...audit(el, 'closed', { blank: true })]
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => part(el, 'prompt'), 'open')
    await new Promise((r) => setTimeout(r, 300))
    list.push(...audit(el, 'open after a buy (larger position on the other side)'))
    const off = vk.faults.fail(isPath('/v1/social/posts', 'POST'))
    const ta = deep<HTMLTextAreaElement>(el, 'textarea')!
    ta.value = 'because'
    ta.dispatchEvent(new Event('input'))
    part(el, 'post')!.click()
    await until(() => part(el, 'error'), 'the post failed')
    list.push(...audit(el, 'post failed'))
    off()
    Object.keys(localStorage)
      .filter((k) => k.startsWith('vk:take-prompt'))
      .forEach((k) => localStorage.removeItem(k))
    expectNoHardCoded(list)
  })

  it('§4.4 rule 7: <vk-moderation-queue> — signed out, forbidden, empty, a reported row, Ban confirmation, a failed action, Actioned, error', async () => {
    const vk = await makeVk()
    const s = await service()
    const owner = s.wallet()
    const v = await s.venue({ owner })
    const author = await s.signedIn({ venueId: v.venueId })
    await setProfile(author.session!.token, { name: 'Ada Author' })
    const market = await s.addMarket()
    const reporter = await s.signedIn({ venueId: v.venueId })
    const list: Finding[] = []
    // A venue with nothing reported (a queue's store is the page's: the reported venue's is read once, below).
    const quiet = await s.venue({ owner })
    const out = await mount(html`<vk-moderation-queue venue-id=${quiet.venueId}></vk-moderation-queue>`, 'vk-moderation-queue')
    await until(() => part(out, 'sign-in'), 'signed out')
    list.push(...audit(out, 'signed out'))
    await vk.signIn(s.wallet())
    await until(() => part(out, 'forbidden'), 'forbidden')
    list.push(...audit(out, 'forbidden'))
    await vk.signIn(owner)
    await until(() => part(out, 'empty'), 'empty')
    list.push(...audit(out, 'empty'))
    const p = await author.createPost('event', market.id, 'reported post')
    await reporter.reportPost(p.id, 'spam and worse')
    const el = await mount(html`<vk-moderation-queue venue-id=${v.venueId}></vk-moderation-queue>`, 'vk-moderation-queue')
    await until(() => deep(el, `#vk-post-${p.id}`), 'the reported row')
    list.push(...audit(el, 'a reported row'))
    deep<HTMLButtonElement>(el, 'button[data-action="ban"]')!.click()
    await until(() => part(el, 'confirm'), 'the Ban confirmation')
    list.push(...audit(el, 'Ban confirmation'))
    deep<HTMLButtonElement>(el, '[part~="confirm"] button:not([data-confirm])')?.click()
    const off = vk.faults.fail(isPath('/v1/mod/hide', 'POST'))
    deep<HTMLButtonElement>(el, 'button[data-action="hide"]')!.click()
    await until(() => deep(el, '[part="row-status"]') && !deep(el, '[part="row-status"][aria-busy]'), 'the action failed')
    list.push(...audit(el, 'Hide failed'))
    off()
    deep<HTMLButtonElement>(el, 'button[data-action="hide"]')!.click()
    await until(() => !deep(el, '[part="row-status"][aria-busy]') && deep(el, '[part="row-status"]'), 'hidden')
    list.push(...audit(el, 'Hide done'))
    deep<HTMLButtonElement>(el, '#tab-actioned')!.focus()
    await sendKeys({ press: 'Enter' })
    await until(() => deep(el, '#tab-actioned[aria-selected="true"]') && !part(el, 'loading'), 'Actioned')
    await new Promise((r) => setTimeout(r, 200))
    list.push(...audit(el, 'Actioned tab'))
    const offQueue = vk.faults.fail(isPath('/v1/mod/queue'))
    const failed = await mount(html`<vk-moderation-queue venue-id=${(await s.venue({ owner })).venueId}></vk-moderation-queue>`, 'vk-moderation-queue')
    await until(() => part(failed, 'retry'), 'the error state')
    list.push(...audit(failed, 'error with Retry'))
    offQueue()
    await expect(el).to.be.accessible()
    expectNoHardCoded(list)
  })

  it('§4.4 rule 7: <vk-author-takes> — takes and discussion tabs, a name, a record, empty, error', async () => {
    const vk = await makeVk()
    const f = await nodeFeed()
    await setProfile(f.caller.session!.token, { name: 'Cal Caller' })
    await f.caller.createPost('topic', freshRef('t'), 'a comment')
    const list: Finding[] = []
    const el = await mount(html`<vk-author-takes wallet=${f.caller.w.wallet}></vk-author-takes>`, 'vk-author-takes')
    await until(() => deep(el, '[role="tab"][aria-selected="true"]') && deep(el, 'vk-take-card'), 'the takes')
    list.push(...audit(el, 'takes tab'))
    deep<HTMLElement>(el, '[role="tab"][aria-selected="true"]')!.focus()
    await sendKeys({ press: 'ArrowRight' })
    await new Promise((r) => setTimeout(r, 300))
    list.push(...audit(el, 'other tab (keyboard)'))
    const empty = await mount(html`<vk-author-takes wallet=${(await service()).wallet().wallet}></vk-author-takes>`, 'vk-author-takes')
    await until(() => part(empty, 'empty'), 'empty')
    list.push(...audit(empty, 'empty'))
    const offs = [isPath('/v1/social/profile/'), isPath('/v1/social/profiles'), isPath('/v1/records'), isPath('/v1/social/posts')].map((m) => vk.faults.fail(m))
    const failed = await mount(html`<vk-author-takes wallet=${f.taker.w.wallet}></vk-author-takes>`, 'vk-author-takes')
    await until(() => part(failed, 'retry'), 'the error state')
    await new Promise((r) => setTimeout(r, 200))
    list.push(...audit(failed, 'error with Retry, record unavailable'))
    offs.forEach((o) => o())
    expectNoHardCoded(list)
  })

  it('§4.4 rule 7: <vk-leaderboard>, <vk-mini-leaderboard>, <vk-record-chip> — ranked, empty, failed, loading, unranked', async () => {
    const vk = await makeVk()
    const f = await nodeFeed()
    const list: Finding[] = []
    const board = await mount(html`<vk-leaderboard scope=${`category:${f.ref}`}></vk-leaderboard>`, 'vk-leaderboard')
    const mini = await mount(html`<vk-mini-leaderboard scope=${`category:${f.ref}`}></vk-mini-leaderboard>`, 'vk-mini-leaderboard')
    const global = await mount(html`<vk-leaderboard scope="global"></vk-leaderboard>`, 'vk-leaderboard')
    await until(() => deep(board, 'li') && deep(mini, 'li') && deep(global, 'li'), 'the boards')
    list.push(...audit(board, 'ranked'), ...audit(mini, 'ranked'), ...audit(global, 'global'))
    const empty = await mount(html`<vk-leaderboard scope=${`topic:${freshRef('empty')}`}></vk-leaderboard>`, 'vk-leaderboard')
    await until(() => part(empty, 'empty'), 'empty')
    list.push(...audit(empty, 'empty'))
    const off = vk.faults.fail(isPath('/v1/leaderboard'))
    const failed = await mount(html`<vk-mini-leaderboard scope=${`topic:${freshRef('err')}`}></vk-mini-leaderboard>`, 'vk-mini-leaderboard')
    await until(() => part(failed, 'error'), 'the error state')
    list.push(...audit(failed, 'error'))
    off()
    const release = vk.faults.hold(isPath('/v1/records'))
    const loading = await mount(html`<vk-record-chip wallet=${f.caller.w.wallet} market-id=${f.settled.id}></vk-record-chip>`, 'vk-record-chip')
    await until(() => deep(loading, '[aria-busy="true"]'), 'loading')
    list.push(...audit(loading, 'loading'))
    release()
    await until(() => !deep(loading, '[aria-busy="true"]'), 'loaded')
    list.push(...audit(loading, 'ranked'))
    const unranked = await mount(html`<vk-record-chip wallet=${f.commenter.w.wallet} market-id=${f.a.id}></vk-record-chip>`, 'vk-record-chip')
    await until(() => marked(unranked) && !deep(unranked, '[aria-busy="true"]'), 'unranked')
    list.push(...audit(unranked, 'unranked'))
    const offRec = vk.faults.fail(isPath('/v1/records'))
    const bad = await mount(html`<vk-record-chip wallet=${f.taker.w.wallet} market-id=${f.b.id}></vk-record-chip>`, 'vk-record-chip')
    await until(() => part(bad, 'error'), 'unavailable')
    list.push(...audit(bad, 'unavailable'))
    offRec()
    await expect(board).to.be.accessible()
    expectNoHardCoded(list)
  })

  it('§4.4 rule 7: <vk-market-verdict> and <vk-market-verdict-counts> — pending, settled, voided, failed; <vk-follow-button> — signed out, follow, following, failed', async () => {
    const vk = await makeVk()
    const s = await service()
    const list: Finding[] = []
    const pending = await s.addMarket()
    const settled = await s.addMarket()
    const voided = await s.addMarket()
    for (const m of [pending, settled, voided]) {
      const a = await s.signedIn()
      await s.setPosition(a.w.wallet, m.id, 0, '1000')
      await a.createPost('event', m.id, 'held')
    }
    await s.resolve(settled.id, 0)
    await s.resolve(voided.id, 'void')
    for (const tag of ['vk-market-verdict', 'vk-market-verdict-counts'])
      for (const [name, m] of [
        ['pending', pending],
        ['settled', settled],
        ['voided', voided],
      ] as const) {
        const el = await mount(tag === 'vk-market-verdict' ? html`<vk-market-verdict market-id=${m.id}></vk-market-verdict>` : html`<vk-market-verdict-counts market-id=${m.id}></vk-market-verdict-counts>`, tag)
        await until(() => marked(el) && !deep(el, '[aria-busy="true"]') && !part(el, 'loading'), `${tag} ${name}`)
        list.push(...audit(el, name))
      }
    const off = vk.faults.fail(isPath('/v1/markets/verdicts'))
    const failed = await mount(html`<vk-market-verdict market-id=${(await s.addMarket()).id}></vk-market-verdict>`, 'vk-market-verdict')
    await until(() => part(failed, 'error'), 'the error state')
    list.push(...audit(failed, 'error'))
    off()
    const ref = freshRef('follow')
    const follow = await mount(html`<vk-follow-button subject-type="category" subject-ref=${ref}></vk-follow-button>`, 'vk-follow-button')
    await until(() => marked(follow), 'signed out')
    list.push(...audit(follow, 'signed out'))
    await vk.signIn(s.wallet())
    await until(() => part(follow, 'button')?.getAttribute('aria-pressed') === 'false', 'not following')
    list.push(...audit(follow, 'not following'))
    part(follow, 'button')!.focus()
    await sendKeys({ press: 'Space' })
    await until(() => part(follow, 'button')?.getAttribute('aria-pressed') === 'true', 'following')
    list.push(...audit(follow, 'following'))
    const offFollow = vk.faults.fail(isPath('/v1/social/follows/'))
    part(follow, 'button')!.click()
    await until(() => part(follow, 'error'), 'the follow failed')
    list.push(...audit(follow, 'write failed'))
    const readFailed = await mount(html`<vk-follow-button subject-type="category" subject-ref=${freshRef('follow')}></vk-follow-button>`, 'vk-follow-button')
    await until(() => part(readFailed, 'retry'), 'the read failed')
    list.push(...audit(readFailed, 'read failed, with Retry'))
    offFollow()
    expectNoHardCoded(list)
  })
})

