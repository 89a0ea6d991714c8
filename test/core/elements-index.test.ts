/** src/elements/index.ts is what scripts/gen-elements-index.mjs writes from the element folders (README "Development"). */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

describe('elements index', () => {
  it('src/elements/index.ts is up to date (`node scripts/gen-elements-index.mjs --check`)', async () => {
    const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(process.execPath, ['scripts/gen-elements-index.mjs', '--check'], { cwd: root, timeout: 30_000 }, (err, _stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stderr }),
      ),
    )
    assert.equal(r.code, 0, r.stderr || 'gen-elements-index --check failed')
  })
})
