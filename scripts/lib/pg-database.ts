/** A fresh PostgreSQL database on a server, for one test file, bench or load run; dropped afterwards. */
import pg from 'pg'
import { randomHex } from '../../src/core/ids.ts'

export async function freshPgDatabase(adminUrl: string, prefix = 'vk'): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomHex(6)}`
  const c = new pg.Client({ connectionString: adminUrl })
  await c.connect()
  await c.query(`create database ${name}`)
  await c.end()
  const u = new URL(adminUrl)
  u.pathname = `/${name}`
  return {
    url: u.toString(),
    async drop() {
      // pg's Pool.end() can resolve before its sockets close: give them a moment before forcing.
      const d = new pg.Client({ connectionString: adminUrl })
      await d.connect()
      try {
        for (let i = 0; i < 20; i++) {
          try {
            await d.query(`drop database if exists ${name}`)
            return
          } catch (e: any) {
            if (e?.code !== '55006') throw e // object in use
            await new Promise((r) => setTimeout(r, 100))
          }
        }
        await d.query(`drop database if exists ${name} with (force)`)
      } finally {
        await d.end()
      }
    },
  }
}
