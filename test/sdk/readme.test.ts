/**
 * The README's "SDK" example runs as written in Node: `node example.mjs` in an app that has venuekit (this
 * checkout's built dist/: `npm test` builds it first; alone, run `bash scripts/build.sh`) and viem installed.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

describe('README SDK section', () => {
  it('the 10-line example runs as written in Node', async () => {
    const md = readFileSync(join(root, 'README.md'), 'utf8')
    const section = md.slice(md.indexOf('\n## SDK\n'))
    const code = /```js\n([\s\S]*?)```/.exec(section)![1]
    assert.equal(code.trimEnd().split('\n').length, 10, 'ten lines')
    // An app outside the repository that has venuekit (this checkout) and viem installed.
    const app = mkdtempSync(join(tmpdir(), 'vk-readme-'))
    try {
      mkdirSync(join(app, 'node_modules'))
      symlinkSync(root, join(app, 'node_modules/venuekit'), 'dir')
      for (const dep of ['viem']) symlinkSync(join(root, 'node_modules', dep), join(app, 'node_modules', dep), 'dir')
      writeFileSync(join(app, 'example.mjs'), code)
      const out = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['example.mjs'], { cwd: app, timeout: 60_000, env: { ...process.env, VK_TEST_DATABASE_URL: '' } }, (err, stdout, stderr) =>
          err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
        ),
      )
      assert.match(out, /body: 'Rain is coming'/)
      assert.match(out, /posts: 1, takes: 0/)
    } finally {
      rmSync(app, { recursive: true, force: true })
    }
  })
})
