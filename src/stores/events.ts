/**
 * Thread-change events seen on the page's stream (`vk.events`, hook `useEvents`) and the in-app
 * notifications built on them (`vk.notifications`). Events carry no payload (§6.1): an event names the
 * thread that changed and when. Notification preferences go through `effectiveMode` (a missing row is
 * not "off": in-app defaults to realtime, external channels are opt-in, §2.12). The read state is one
 * store of the page context, so every mount sees the same reads (§6.3).
 */
import { persistedJSON } from './persisted.ts'
import { atom, computed, onMount, type ReadableAtom } from 'nanostores'
import type { SubjectType } from '../contract/ids.ts'
import { effectiveMode, type Channel, type NotificationMode, type PreferenceRow } from '../core/notifications.ts'
import type { Ctx } from './ctx.ts'

export interface ThreadEvent {
  /** Unique per event on this page. */
  id: string
  kind: 'thread-changed'
  subjectType: SubjectType
  subjectRef: string
  at: string
}
export interface EventsValue {
  /** Newest first. */
  events: ThreadEvent[]
  loading: boolean
}
export interface NotificationsValue {
  /** Thread-change events the in-app preference lets through, newest first. */
  items: (ThreadEvent & { read: boolean })[]
  prefs: PreferenceRow[]
  effectiveMode(channel: Channel, kind: string): NotificationMode
  unread: number
  markRead(id: string): void
  markAllRead(): void
  setPrefs(rows: PreferenceRow[]): void
}

/** Events kept per page. */
const KEEP = 100
let seq = 0

export function events(ctx: Ctx) {
  const $events = atom<ThreadEvent[]>([])
  const push = (t: { subjectType: SubjectType; subjectRef: string }) => {
    const e: ThreadEvent = { id: `e${Date.now().toString(36)}${(seq++).toString(36)}`, kind: 'thread-changed', ...t, at: new Date().toISOString() }
    $events.set([e, ...$events.get()].slice(0, KEEP))
  }

  /** The latest `limit` events, re-read from the page's list every `refreshMs` (or on every change when unset). */
  const eventsStore = (o?: { limit?: number } | null, r?: { refreshMs?: number } | null): ReadableAtom<EventsValue> =>
    ctx.keep(`events:${o?.limit ?? ''}:${r?.refreshMs ?? ''}`, () => {
      const limit = o?.limit ?? 20
      if (!r?.refreshMs) return computed($events, (es) => ({ events: es.slice(0, limit), loading: false }))
      const $v = atom<EventsValue>({ events: [], loading: true })
      onMount($v, () => {
        const poll = () => $v.set({ events: $events.get().slice(0, limit), loading: false })
        poll()
        const t = setInterval(poll, r.refreshMs)
        return () => clearInterval(t)
      })
      return $v
    })

  const $prefs = persistedJSON<PreferenceRow[]>('vk:notifications:prefs', [])
  // Events live as long as the page, so their read state does too: one store for every mount.
  const $read = atom<string[]>([])
  ctx.onDispose($prefs.listen(() => {}))
  const markRead = (id: string) => {
    if (!$read.get().includes(id)) $read.set([id, ...$read.get()].slice(0, KEEP))
  }
  const $notifications = computed([$events, $prefs, $read], (es, prefs, read): NotificationsValue => {
    const items = effectiveMode(prefs, 'inApp', 'thread') === 'off' ? [] : es.map((e) => ({ ...e, read: read.includes(e.id) }))
    return {
      items,
      prefs,
      effectiveMode: (channel, kind) => effectiveMode(prefs, channel, kind),
      unread: items.filter((i) => !i.read).length,
      markRead,
      markAllRead: () => items.forEach((i) => markRead(i.id)),
      setPrefs: (rows) => $prefs.set([...rows]),
    }
  })

  return { push, events: eventsStore, notifications: (): ReadableAtom<NotificationsValue> => $notifications }
}
