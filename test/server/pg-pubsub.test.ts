/**
 * The PostgreSQL bus (§6.1: a message is only a topic). Publishes are coalesced into NOTIFY statements:
 * every publish must still reach every listener as one event (a topic published five times is five
 * events, though PostgreSQL folds identical notifications of one transaction), each promise must settle
 * with its statement, and a failed statement must fail the publishes it carried.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { busPayload, PgPubSub, readBusPayload } from '../../src/server/realtime/pg-pubsub.ts'
import { freshPgDatabase } from '../../scripts/lib/pg-database.ts'

const URL = process.env.VK_TEST_DATABASE_URL
const skip = !URL && 'needs PostgreSQL (LISTEN/NOTIFY; set VK_TEST_DATABASE_URL)'

describe('PostgreSQL bus: coalesced NOTIFY', { skip }, () => {
  let db: { url: string; drop(): Promise<void> }
  let bus: PgPubSub
  let other: PgPubSub
  before(async () => {
    db = await freshPgDatabase(URL!, 'vk_test')
    bus = await PgPubSub.connect(db.url)
    other = await PgPubSub.connect(db.url)
  })
  after(async () => {
    await bus?.close()
    await other?.close()
    await db?.drop()
  })

  /** Collects what `on` hears until `want` events have arrived, then a little longer for extras. */
  async function hear(on: PgPubSub, act: () => Promise<unknown>, want: number) {
    const heard: string[] = []
    const stop = on.subscribe((t) => heard.push(t))
    try {
      await act()
      for (let i = 0; i < 200 && heard.length < want; i++) await new Promise((r) => setTimeout(r, 10))
      await new Promise((r) => setTimeout(r, 150))
      return heard
    } finally {
      stop()
    }
  }

  it('§6.1 "fires when the thread changes" under concurrent writes: 300 publishes of 60 topics at once reach a listener on another instance as 300 events, 5 per topic', async () => {
    const topics = Array.from({ length: 60 }, (_, i) => `thread:topic:burst-${i}`)
    const published = Array.from({ length: 300 }, (_, i) => topics[i % topics.length])
    const heard = await hear(other, () => Promise.all(published.map((t) => bus.publish(t))), published.length)
    assert.deepEqual([...heard].sort(), [...published].sort())
  })

  it('topics published while a NOTIFY is on its way go in the next statement: none is lost, none is repeated', async () => {
    const heard = await hear(
      other,
      async () => {
        const first = bus.publish('thread:topic:first')
        await Promise.resolve() // the first statement is now on its way
        const later = ['thread:topic:later-a', 'thread:topic:later-b', 'thread:topic:later-a'].map((t) => bus.publish(t))
        await Promise.all([first, ...later])
      },
      4,
    )
    assert.deepEqual([...heard].sort(), ['thread:topic:first', 'thread:topic:later-a', 'thread:topic:later-a', 'thread:topic:later-b'])
  })

  it('the publishing instance hears its own topics too (PubSub: "this one included")', async () => {
    const heard = await hear(bus, () => bus.publish('thread:topic:own'), 1)
    assert.deepEqual(heard, ['thread:topic:own'])
  })

  it('a publish whose statement fails rejects (the caller learns the event was not sent)', async () => {
    const closed = await PgPubSub.connect(db.url)
    await closed.close()
    await assert.rejects(Promise.all([closed.publish('thread:topic:x'), closed.publish('thread:topic:y')]))
  })
})

describe('PostgreSQL bus: payloads', () => {
  it('a topic with its count reads back as itself; a count of one is the bare topic', () => {
    assert.equal(busPayload('thread:event:0xab', 1), 'thread:event:0xab')
    for (const [topic, n] of [['thread:event:0xab', 1], ['thread:category:crypto-2', 7], ['thread:topic:x', 250]] as const)
      assert.deepEqual(readBusPayload(busPayload(topic, n)), { topic, count: n })
  })
})
