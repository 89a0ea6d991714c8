/* global setTimeout */
/**
 * @web/test-runner for every browser test (`test/browser/**\/*.test.ts`) in Debian Chromium
 * (`apt-get install -y chromium`). TypeScript through esbuild; bare imports resolved from node_modules.
 * A reference service (dev fixture routes on, see test/helpers/sdk-fixture.ts) starts with the dev server;
 * tests read its addresses from `/__vk/config.json` ({ url, streamUrl }).
 *
 *   npx wtr                      all browser tests
 *   npx wtr "test/browser/sdk.test.ts"
 */
import { esbuildPlugin } from '@web/dev-server-esbuild'
import { chromeLauncher } from '@web/test-runner-chrome'
import { tsImport } from 'tsx/esm/api'

const { CHROMIUM_PATH, CHROMIUM_ARGS } = await tsImport('./scripts/chromium.ts', import.meta.url)

/** Starts the reference service with the dev server and stops it with it. */
function referenceService() {
  let svc = null
  return {
    name: 'venuekit-reference-service',
    async serverStart() {
      const { startSdkFixture } = await tsImport('./test/helpers/sdk-fixture.ts', import.meta.url)
      svc = await startSdkFixture()
    },
    serve(context) {
      if (context.path === '/__vk/config.json') return { body: JSON.stringify({ url: svc.url, streamUrl: svc.streamUrl }), type: 'json' }
    },
    async serverStop() {
      await svc?.close()
    },
  }
}

/**
 * Routes for the transport's fault tests (test/browser/xhr-fetch.test.ts), under any path below them:
 * `/__vk/status/<code>` answers that status, with an HTML body (`<html><code></html>`) unless the status has
 * none; `/__vk/hang` answers `{}` only after 5 s.
 */
async function faultRoutes(ctx, next) {
  const status = /^\/__vk\/status\/(\d{3})(\/|$)/.exec(ctx.path)
  if (status) {
    ctx.status = Number(status[1])
    if (![204, 205, 304].includes(ctx.status)) {
      ctx.type = 'text/html'
      ctx.body = `<html>${ctx.status}</html>`
    }
    return
  }
  if (/^\/__vk\/hang(\/|$)/.test(ctx.path)) {
    await new Promise((r) => setTimeout(r, 5000))
    ctx.body = {}
    return
  }
  return next()
}

/**
 * `executeServerCommand('vk-focus-page')`: brings the test's tab to the front. Chromium delivers focus events
 * (and so `relatedTarget`, which the take prompt uses to know where focus came from) only to the page whose
 * window has focus; a test that checks where focus goes calls this first.
 */
function focusPageCommand() {
  return {
    name: 'vk-focus-page',
    async executeCommand({ command, session }) {
      if (command !== 'vk-focus-page') return undefined
      await session.browser.getPage(session.id).bringToFront()
      return true
    },
  }
}

/**
 * `executeServerCommand('vk-forced-colors', { active })`: emulates (or stops emulating) forced-colors mode (Windows
 * High Contrast): Chromium then paints with the forced system colours, as a reader using it sees the page. The chrome
 * launcher is puppeteer's, whose `emulateMedia` command ignores `forcedColors`.
 */
function forcedColorsCommand() {
  // An emulation lasts as long as the DevTools session that set it: one kept per test page.
  const sessions = new Map()
  return {
    name: 'vk-forced-colors',
    async executeCommand({ command, session, payload }) {
      if (command !== 'vk-forced-colors') return undefined
      // Through the DevTools protocol: this puppeteer's emulateMediaFeatures refuses forced-colors.
      const page = session.browser.getPage(session.id)
      if (!sessions.has(page)) sessions.set(page, await page.createCDPSession())
      await sessions.get(page).send('Emulation.setEmulatedMedia', { features: [{ name: 'forced-colors', value: payload?.active ? 'active' : 'none' }] })
      return true
    },
  }
}

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: true,
  middleware: [faultRoutes],
  concurrency: 1,
  plugins: [esbuildPlugin({ ts: true, target: 'es2022' }), referenceService(), focusPageCommand(), forcedColorsCommand()],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: CHROMIUM_ARGS,
      },
    }),
  ],
  testFramework: { config: { timeout: 20_000 } },
  // test/browser/setup/readable-failures.ts runs first on every test page: a failed assertion on a DOM node
  // reports its markup instead of stopping the whole run until `testsFinishTimeout`.
  testRunnerHtml: (framework) =>
    `<!DOCTYPE html><html><head></head><body><script type="module" src="/test/browser/setup/readable-failures.ts"></script><script type="module" src="${framework}"></script></body></html>`,
  testsFinishTimeout: 180_000,
}
