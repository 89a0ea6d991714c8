/**
 * `xhrFetch`, the page context's transport in browsers (src/sdk/xhr-fetch.ts): the whole SDK contract suite
 * over it against the reference service, the faults the SDK maps (network failure, deadline, the caller's
 * abort, an error status with a non-JSON body), and what it is for: the body handed over with the response,
 * without a further task.
 */
import { expect } from '@open-wc/testing'
import { contractCases, rejects } from '../sdk/contract-suite.ts'
import { harness, type Harness } from '../sdk/harness.ts'
import { createClient, HttpError, NetworkError, TimeoutError } from '../../src/sdk/index.ts'
import { xhrFetch } from '../../src/sdk/xhr-fetch.ts'
import { createVenuekit, getVenuekit } from '../../src/stores/index.ts'
import { fixtureEnv } from './elements-env.ts'

const M = `0x${'ab'.repeat(32)}`
/** A market id no test has read yet, so each read has its own resource timing entry. */
const fresh = () => `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('')}`
const origin = location.origin
/** The thread read of market `M`, by the SDK, against `baseUrl`. */
const client = (baseUrl: string, o: { timeoutMs?: number } = {}) => createClient({ baseUrl, apiKey: null, fetchImpl: xhrFetch, ...o })
const resourcesOf = (url: string) => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.name.startsWith(url))

describe('xhrFetch: the SDK contract over XMLHttpRequest (Chromium)', () => {
  let h: Harness
  before(async () => {
    h = harness({ ...(await fixtureEnv()), fetchImpl: xhrFetch })
  })
  for (const c of contractCases) it(c.name, () => c.run(h))
})

describe('xhrFetch', () => {
  // The contract suite above fills the page's resource timing buffer (250 entries by default).
  beforeEach(() => performance.clearResourceTimings())
  afterEach(() => getVenuekit()?.dispose())

  it('goes over XMLHttpRequest, and its Response gives the body back without waiting for a task', async () => {
    const env = await fixtureEnv()
    const url = `${env.url}/v1/social/posts?subjectType=event&subjectRef=${fresh()}`
    const res = await xhrFetch(url)
    expect(res).to.be.instanceOf(Response)
    expect([res.status, res.ok, res.url]).to.deep.equal([200, true, url])
    expect(res.headers.get('content-type')).to.match(/^application\/json/)
    expect(resourcesOf(url).map((e) => e.initiatorType)).to.deep.equal(['xmlhttprequest'])
    const order: string[] = []
    setTimeout(() => order.push('a task queued before'))
    const body = await res.text()
    order.push('text()')
    expect(order).to.deep.equal(['text()'])
    expect(JSON.parse(body).posts).to.deep.equal([])
    expect((await xhrFetch(url).then((r) => r.json())).posts).to.deep.equal([])
  })

  it('resolves for every HTTP status, with no body where the status has none', async () => {
    const none = await xhrFetch(`${origin}/__vk/status/204`)
    expect([none.status, none.ok, await none.text()]).to.deep.equal([204, true, ''])
    const bad = await xhrFetch(`${origin}/__vk/status/503`)
    expect([bad.status, bad.ok, await bad.text()]).to.deep.equal([503, false, '<html>503</html>'])
  })

  it('a status above 599 is handed over as fetch hands it over, and the SDK throws HttpError with it', async () => {
    const url = `${origin}/__vk/status/600`
    const seen = async (f: typeof fetch) => {
      const r = await f(url)
      return [r.status, r.ok, await r.text()]
    }
    expect(await seen(xhrFetch)).to.deep.equal(await seen(fetch))
    expect(await seen(xhrFetch)).to.deep.equal([600, false, '<html>600</html>'])
    await rejects(client(`${origin}/__vk/status/600`).posts('event', M), { type: HttpError, status: 600, code: 'http-600' })
  })

  it('hands a Request object over to fetch (its body may be a stream)', async () => {
    const env = await fixtureEnv()
    const url = `${env.url}/v1/social/posts?subjectType=event&subjectRef=${fresh()}`
    const res = await xhrFetch(new Request(url))
    expect(res.status).to.equal(200)
    await res.text()
    expect(resourcesOf(url).map((e) => e.initiatorType)).to.deep.equal(['fetch'])
  })

  it('§4.2 errors: an error status whose body is not JSON throws HttpError (code http-502) with the body as text', async () => {
    await rejects(client(`${origin}/__vk/status/502`).posts('event', M), { type: HttpError, status: 502, code: 'http-502', body: '<html>502</html>' })
  })

  it('§4.2 errors: a failed network throws NetworkError', async () => {
    await rejects(client('http://127.0.0.1:9').posts('event', M), { type: NetworkError, code: 'network' })
  })

  it('§4.2 errors: a request past timeoutMs throws TimeoutError', async () => {
    const t0 = performance.now()
    await rejects(client(`${origin}/__vk/hang`, { timeoutMs: 150 }).posts('event', M), { type: TimeoutError, code: 'timeout' })
    expect(performance.now() - t0).to.be.below(2000)
  })

  it('§8 "Request deadline (timeoutMs): Optional; unset means unbounded": over XMLHttpRequest too, a request without timeoutMs waits for a slow answer (5 s) and judges it, never ending it by a deadline of its own', async () => {
    const t0 = performance.now()
    // The slow route answers `{}` after 5 s: no fields, so the answer itself is the SDK's invalid-response, never a TimeoutError or NetworkError.
    await rejects(client(`${origin}/__vk/hang`).posts('event', M), { type: HttpError, code: 'invalid-response' })
    expect(performance.now() - t0, 'it waited for the answer').to.be.at.least(4500)
  })

  it("the caller's abort rejects with the caller's reason and aborts the request", async () => {
    const ctl = new AbortController()
    const reason = new Error('left the page')
    const outcome = (p: Promise<unknown>) => p.then(() => 'answered', (x: unknown) => x)
    const t0 = performance.now()
    const p = outcome(xhrFetch(`${origin}/__vk/hang`, { signal: ctl.signal }))
    setTimeout(() => ctl.abort(reason), 50)
    expect(await p).to.equal(reason)
    expect(performance.now() - t0, 'rejected when aborted, not when answered').to.be.below(2000)
    expect(await outcome(xhrFetch(`${origin}/__vk/hang`, { signal: ctl.signal }))).to.equal(reason)
    const sdk = await client(`${origin}/__vk/hang`)
      .posts('event', M, { signal: ctl.signal })
      .catch((x: unknown) => x)
    expect(sdk).to.equal(reason)
  })

  it('sends the method, the headers and the body', async () => {
    const env = await fixtureEnv()
    const s = await harness(env).signedIn()
    const m = await harness(env).addMarket()
    const res = await xhrFetch(`${env.url}/v1/social/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${s.session!.token}` },
      body: JSON.stringify({ subjectType: 'event', subjectRef: m.id, body: 'sent over XMLHttpRequest' }),
    })
    expect(res.status).to.equal(201)
    const { post } = await res.json()
    expect([post.body, post.author]).to.deep.equal(['sent over XMLHttpRequest', s.w.wallet])
  })

  it('the page context reads over XMLHttpRequest unless its config gives a fetch', async () => {
    const env = await fixtureEnv()
    const mine = fresh()
    let vk = createVenuekit({ config: { baseUrl: env.url, apiKey: null } })
    await vk.client.posts('event', mine)
    expect(resourcesOf(`${env.url}/v1/social/posts`).filter((e) => e.name.includes(mine)).map((e) => e.initiatorType)).to.deep.equal(['xmlhttprequest'])
    vk.dispose()
    const seen: string[] = []
    const own: typeof fetch = (input, init) => (seen.push(String(input)), fetch(input, init))
    vk = createVenuekit({ config: { baseUrl: env.url, apiKey: null, fetchImpl: own } })
    await vk.client.posts('event', mine)
    expect(seen.length).to.equal(1)
  })
})
