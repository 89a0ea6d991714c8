/**
 * §3.3 and §7: a composer's cure for a room's refusal (`joinOffer`, src/elements/shared/failures.ts). 'join this
 * room to post in it' and 'you left this room — rejoin to post' offer a join; a join the room answers with
 * `refused: true` ('this room is not open to join') is a failure, never a cure that posts again.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { MSG } from '../../src/contract/errors.ts'
import { joinOffer, writeFailureText } from '../../src/elements/shared/failures.ts'
import type { StringsController } from '../../src/elements/shared/strings-controller.ts'
import { HttpError, VenuekitError } from '../../src/sdk/errors.ts'

/** A strings controller that answers each key by its name. */
const str = { t: (k: string) => k } as unknown as StringsController<'comments'>
const refusal = (code: string) => new HttpError(403, code, {}, 'refused')

describe('joinOffer', () => {
  it("§7 'join this room to post in it' offers 'Join and post'; 'you left this room — rejoin to post' offers 'Rejoin and post'; other failures and posts outside a room offer nothing", () => {
    const offer = joinOffer(str, 'r_1', async () => ({ refused: false }))
    assert.equal(offer(refusal('room-join-required'))?.label, 'joinAndPost')
    assert.equal(offer(refusal('room-left'))?.label, 'rejoinAndPost')
    assert.equal(offer(refusal('banned')), null)
    assert.equal(offer(new VenuekitError('network', 'down')), null)
    assert.equal(joinOffer(str, null, async () => ({ refused: false }))(refusal('room-join-required')), null)
  })

  it('the cure joins the refusing room', async () => {
    const joined: string[] = []
    await joinOffer(str, 'r_2', async (room) => (joined.push(room), { refused: false }))(refusal('room-join-required'))!.run()
    assert.deepEqual(joined, ['r_2'])
  })

  it("§3.3 a join answered `refused: true` fails the cure with 'this room is not open to join', which reads as the slice's joinRefused", async () => {
    const run = joinOffer(str, 'r_3', async () => ({ refused: true }))(refusal('room-join-required'))!.run
    const e = await run().then(
      () => assert.fail('a refused join is no cure'),
      (e: unknown) => e,
    )
    assert.ok(e instanceof VenuekitError)
    assert.deepEqual([e.code, e.message], ['room-not-open', MSG.ROOM_NOT_OPEN])
    assert.equal(writeFailureText(str, e, 'postFailed'), 'joinRefused')
  })
})
