/**
 * Starts `npm run demo -- --port 0` in its own process group and resolves with its address once it prints
 * it; `stop()` ends the whole group (npm, bash, node). Used by the end-to-end test and the screenshots.
 */
import { spawn } from 'node:child_process'
import process from 'node:process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

export interface DemoProcess {
  url: string
  /** Everything the demo printed so far (for failure messages). */
  output(): string
  stop(): Promise<void>
}

export function startDemoProcess({ timeoutMs = 300_000 } = {}): Promise<DemoProcess> {
  const child = spawn('npm', ['run', 'demo', '--', '--port', '0'], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } })
  let out = ''
  const stop = async () => {
    if (child.exitCode != null || child.signalCode != null) return
    const exited = new Promise<void>((r) => child.once('exit', () => r()))
    try {
      process.kill(-child.pid!, 'SIGTERM')
    } catch {}
    const t = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {}
    }, 5000)
    await exited
    clearTimeout(t)
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`npm run demo did not print its address within ${timeoutMs / 1000} s:\n${out}`))
    }, timeoutMs)
    const onData = (d: Buffer) => {
      out += d.toString()
      const m = /venuekit demo: (http:\/\/\S+?)\/?\s/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve({ url: m[1], output: () => out, stop })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`npm run demo exited (${code}) before printing its address:\n${out}`))
    })
  })
}
