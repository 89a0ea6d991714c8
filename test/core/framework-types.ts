/**
 * Type checks of the generated framework types (dist/types, scripts/gen-framework-types.mjs), run by the
 * suite's `tsc --noEmit` (not a test file: nothing runs at runtime). A line marked @ts-expect-error fails the
 * type check when it stops being an error.
 */
import type {} from 'venuekit/types/react'
import type { JSX } from 'react'
import type { VenuekitGlobal } from 'venuekit/stores'

type Comments = JSX.IntrinsicElements['vk-market-comments']
type Takes = JSX.IntrinsicElements['vk-community-takes']

/** Every element takes `theme` (elements/shared/theme.ts): light or dark, nothing else. */
export const themed: Comments[] = [{ theme: 'dark' }, { theme: 'light', 'market-id': '0x01' }]
// @ts-expect-error not a theme
export const notATheme: Comments = { theme: 'blue' }

/** `<vk-community-takes>`' events are typed (its manifest entry once lost them to a stray JSDoc block). */
export const opens: Takes = { 'onvk-open-market': (e) => void e.detail.marketId }

/** `window.venuekit` (the script tag's global) is typed once a type is imported from `venuekit/stores`. */
export const global: VenuekitGlobal | undefined = window.venuekit
export const configured = () => window.venuekit?.configure({ baseUrl: 'https://api.example' }, { moderation: false }).dispose()
// @ts-expect-error configure needs a ClientConfig
export const misconfigured = () => window.venuekit?.configure('https://api.example')
