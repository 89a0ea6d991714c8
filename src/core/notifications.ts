/**
 * Notification modes (§2.12). A missing preference row is not "off": in-app defaults to realtime and
 * every external channel is opt-in (off until chosen).
 */
export type NotificationMode = 'realtime' | 'digest' | 'off'
export type Channel = 'inApp' | 'email' | 'push' | 'telegram'

export const CHANNEL_DEFAULT_MODE: Readonly<Record<Channel, NotificationMode>> = {
  inApp: 'realtime',
  email: 'off',
  push: 'off',
  telegram: 'off',
}

export interface PreferenceRow {
  channel: Channel
  /** Notification kind (e.g. 'reply', 'settled'); '*' applies to every kind of the channel. */
  kind: string
  mode: NotificationMode
}

export function effectiveMode(prefs: readonly PreferenceRow[] | null | undefined, channel: Channel, kind: string): NotificationMode {
  const rows = prefs ?? []
  const exact = rows.find((r) => r.channel === channel && r.kind === kind)
  if (exact) return exact.mode
  const any = rows.find((r) => r.channel === channel && r.kind === '*')
  if (any) return any.mode
  return Object.hasOwn(CHANNEL_DEFAULT_MODE, channel) ? CHANNEL_DEFAULT_MODE[channel] : 'off'
}
