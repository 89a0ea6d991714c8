/** The README "SDK" example (docs/sdk-readme-section.md) runs as written in Node. */
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
    const md = readFileSync(join(root, 'docs/sdk-readme-section.md'), 'utf8')
    const code = /```js\n([\s\S]*?)```/.exec(md)![1]
    assert.equal(code.trimEnd().split('\n').length, 10, 'ten lines')
    // An app outside the repository that has venuekit (this checkout), viem and tsx installed.
    const app = mkdtempSync(join(tmpdir(), 'vk-readme-'))
    try {
      mkdirSync(join(app, 'node_modules'))
      symlinkSync(root, join(app, 'node_modules/venuekit'), 'dir')
      for (const dep of ['viem', 'tsx']) symlinkSync(join(root, 'node_modules', dep), join(app, 'node_modules', dep), 'dir')
      writeFileSync(join(app, 'example.mjs'), code)
      const out = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['--import', 'tsx', 'example.mjs'], { cwd: app, timeout: 60_000, env: { ...process.env, VK_TEST_DATABASE_URL: '' } }, (err, stdout, stderr) =>
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
