/**
 * Reads back every post of a thread through the public API (top-level pages with their replies), for
 * the load script and the crash test: "every acknowledged post can be read back".
 */
import type { Post, ThreadPage } from '../src/contract/types.ts'
import { PATHS } from '../src/contract/paths.ts'

/** Every post (top-level and replies) of one thread, by id. Pages of 100, newest first, until the end. */
export async function readThread(baseUrl: string, subjectType: string, subjectRef: string): Promise<Map<string, Post>> {
  const out = new Map<string, Post>()
  let cursor: string | null = null
  for (let page = 0; page < 100_000; page++) {
    const q = new URLSearchParams({ subjectType, subjectRef, limit: '100', includeReplies: 'true' })
    if (cursor) q.set('cursor', cursor)
    const res = await fetch(`${baseUrl}${PATHS.posts}?${q}`)
    if (res.status !== 200) throw new Error(`thread read answered ${res.status}: ${await res.text()}`)
    const body = (await res.json()) as ThreadPage
    for (const p of body.posts) out.set(p.id, p)
    for (const replies of Object.values(body.threads)) for (const r of replies) out.set(r.id, r)
    cursor = body.nextCursor
    if (!cursor) break
  }
  return out
}

export interface AckedPost {
  id: string
  subjectType: string
  subjectRef: string
  body: string
  parentId: string | null
  stanceSide: number | null
}

/** The acknowledged posts that cannot be read back, or that read back different from what was acknowledged. */
export async function missingPosts(baseUrl: string, acked: AckedPost[]): Promise<string[]> {
  const byThread = new Map<string, AckedPost[]>()
  for (const p of acked) {
    const k = `${p.subjectType}\u0000${p.subjectRef}`
    byThread.set(k, [...(byThread.get(k) ?? []), p])
  }
  const problems: string[] = []
  for (const [k, posts] of byThread) {
    const [type, ref] = k.split('\u0000')
    const seen = await readThread(baseUrl, type, ref)
    for (const p of posts) {
      const got = seen.get(p.id)
      if (!got) problems.push(`${p.id} (${type}:${ref.slice(0, 12)}…) is missing`)
      else if (got.body !== p.body || got.parentId !== p.parentId || (got.stance?.side ?? null) !== p.stanceSide)
        problems.push(`${p.id} reads back different: ${JSON.stringify(got).slice(0, 200)}`)
    }
  }
  return problems
}
