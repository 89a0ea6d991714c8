/** The market page as a Vue 3 app (demo). The elements and one store, straight from the package. */
import { createApp } from 'vue'
import 'venuekit/elements/platform-provider'
import 'venuekit/elements/take-prompt'
import 'venuekit/elements/market-comments'
import 'venuekit/elements/follow-button'
import { startApp } from '../shared/app.ts'
import App from './App.vue'

const { vk, market, buyHost } = await startApp()
createApp(App, { vk, market, buyHost }).mount('#app')
