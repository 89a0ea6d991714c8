/**
 * The one Chromium that every browser-driving tool launches: the browser tests (web-test-runner.config.mjs),
 * the end-to-end demo test, the screenshots and the first-render bench. Debian's (`apt-get install -y chromium`),
 * or the one `VK_CHROMIUM` names (scripts/setup.sh sets it), with the flags this machine needs: no sandbox as
 * root, headless, software paint, and none of Chromium's own background network traffic (the network here
 * is closed, and those connections compete with the page on two cores).
 */
import process from 'node:process'
import { chromium, type Browser } from 'playwright-core'

export const CHROMIUM_PATH = process.env.VK_CHROMIUM || '/usr/bin/chromium'
export const CHROMIUM_ARGS = ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']

/** Launches that Chromium through playwright-core, with any extra flags. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] })
}
