/**
 * What the Vue, Svelte and React apps share: they create the page's venuekit context themselves (no
 * script tag), the way an app does, and mount the demo's developer bar. Demo code.
 */
import './demo.css'
import { createVenuekit, type Venuekit } from 'venuekit/stores'
import type { Market } from '../../src/contract/types.ts'
import { mountDevBar, type DevBar } from './dev-bar.ts'
import { mountSiteNav } from './site-nav.ts'
import { demoConfig, handleElementRequests, pageMarket } from './market.ts'

export interface AppStart {
  vk: Venuekit
  market: Market
  devBar: DevBar
  /** Where the app mounts the demo's buy buttons. */
  buyHost: HTMLElement
}

export async function startApp(): Promise<AppStart> {
  mountSiteNav()
  const cfg = await demoConfig()
  const vk = createVenuekit({ config: { baseUrl: location.origin, apiKey: cfg.apiKey, venueId: cfg.venueId } })
  const market = await pageMarket()
  // This app's own page for another market.
  handleElementRequests(location.pathname)
  const buyHost = document.createElement('div')
  buyHost.className = 'demo-buy-row'
  buyHost.id = 'demo-buy'
  const devBar = mountDevBar(document.getElementById('demo-bar')!, vk, { market, buyHost })
  return { vk, market, devBar, buyHost }
}
