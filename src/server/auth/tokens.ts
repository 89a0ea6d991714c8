/** Secrets are stored only as SHA-256 hashes: session tokens and venue keys alike. */
import { createHash } from 'node:crypto'
import { randomHex } from '../../core/ids.ts'

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')
export const newSessionToken = () => `vks_${randomHex(32)}`
