/**
 * The page's read cache (src/stores/query.ts) in a real page: while the page is hidden nothing is read;
 * becoming visible again, or coming back online, re-reads every mounted store whose answer is stale.
 */
import { expect } from '@open-wc/testing'
import './elements-env.ts'
import { createQueryCache } from '../../src/stores/query.ts'

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms))

/** Pretends the page is hidden (or shown) and says so, as the browser does. */
function setHidden(hidden: boolean) {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden })
  // As the browser's, it bubbles from the document to the window, where the cache listens.
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }))
}

describe('read cache: page visibility and connection', () => {
  afterEach(() => {
    delete (document as { hidden?: boolean }).hidden
  })

  it('a hidden page reads nothing (even when asked to re-read); shown again, the stale store is read', async () => {
    const q = createQueryCache(0)
    let reads = 0
    const s = q.store(['k'], async () => ++reads)
    const off = s.listen(() => {})
    await tick()
    expect(reads).to.equal(1)
    setHidden(true)
    s.revalidate()
    await tick()
    expect(reads).to.equal(1)
    setHidden(false)
    await tick()
    expect(reads).to.equal(2)
    expect(s.get()).to.deep.include({ data: 2, loading: false })
    off()
  })

  it('coming back online re-reads the mounted stores whose answer is stale, and not those still fresh', async () => {
    const q = createQueryCache(60_000)
    let reads = 0
    const s = q.store(['k'], async () => ++reads)
    const off = s.listen(() => {})
    await tick()
    window.dispatchEvent(new Event('online'))
    await tick()
    expect(reads, 'fresh: from the cache').to.equal(1)
    const stale = createQueryCache(0)
    let staleReads = 0
    const t = stale.store(['k'], async () => ++staleReads)
    const offT = t.listen(() => {})
    await tick()
    window.dispatchEvent(new Event('online'))
    await tick()
    expect(staleReads).to.equal(2)
    offT()
    off()
  })

  it('a disposed cache (its context disposed) stops listening: coming online reads nothing more', async () => {
    const q = createQueryCache(0)
    let reads = 0
    const s = q.store(['k'], async () => ++reads)
    const off = s.listen(() => {})
    await tick()
    q.dispose()
    window.dispatchEvent(new Event('online'))
    setHidden(true)
    setHidden(false)
    await tick()
    expect(reads).to.equal(1)
    off()
  })
})
