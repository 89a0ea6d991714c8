/** The market page as a Svelte 5 app (demo). The elements and one store, straight from the package. */
import { mount } from 'svelte'
import 'venuekit/elements/platform-provider'
import 'venuekit/elements/take-prompt'
import 'venuekit/elements/market-comments'
import 'venuekit/elements/follow-button'
import { startApp } from '../shared/app.ts'
import App from './App.svelte'

const { vk, market, buyHost } = await startApp()
mount(App, { target: document.getElementById('app')!, props: { vk, market, buyHost } })
