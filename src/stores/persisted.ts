/**
 * Stores kept in `localStorage`, for what must outlive a reload: the take prompt's open and answered
 * state (§3.4 "remembered across reloads") and the notification preferences. Every tab shares them: a
 * change in one tab reaches the others (the `storage` event) while the store is listened to. Without
 * storage (a private window that refuses it, a worker, Node) they work in memory for the page's life.
 */
import { atom, map, onMount, type MapStore, type WritableAtom } from 'nanostores'

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

function write(key: string, value: string | undefined) {
  try {
    if (value === undefined) storage()?.removeItem(key)
    else storage()?.setItem(key, value)
  } catch {
    // Full or refused: the value still holds for this page.
  }
}

/** Calls `apply(key, newValue)` for storage changes made by other tabs, while `store` is listened to. */
function syncTabs(store: MapStore<any> | WritableAtom<any>, apply: (key: string, value: string | null) => void) {
  onMount(store, () => {
    if (typeof window === 'undefined') return
    const on = (e: StorageEvent) => {
      if (e.storageArea === storage() && e.key !== null) apply(e.key, e.newValue)
    }
    window.addEventListener('storage', on)
    return () => window.removeEventListener('storage', on)
  })
}

/** A map of strings, each key stored as `prefix + key`; setting a key to undefined removes it. */
export function persistedMap<T extends Record<string, string | undefined>>(prefix: string): MapStore<T> {
  const initial: Record<string, string> = {}
  const s = storage()
  try {
    for (let i = 0; s && i < s.length; i++) {
      const k = s.key(i)
      if (k?.startsWith(prefix)) initial[k.slice(prefix.length)] = s.getItem(k) ?? ''
    }
  } catch {
    // Unreadable storage: start empty.
  }
  const store = map<T>(initial as T)
  const setKey = store.setKey.bind(store)
  store.setKey = (key, value) => {
    write(prefix + String(key), value as string | undefined)
    setKey(key, value)
  }
  syncTabs(store, (k, v) => {
    if (k.startsWith(prefix)) (setKey as (key: string, value: string | undefined) => void)(k.slice(prefix.length), v ?? undefined)
  })
  return store
}

/** A JSON value stored under `key` (`initial` when absent or unreadable). */
export function persistedJSON<T>(key: string, initial: T): WritableAtom<T> {
  const parse = (raw: string | null | undefined): T => {
    if (raw == null) return initial
    try {
      return JSON.parse(raw) as T
    } catch {
      return initial
    }
  }
  let raw: string | null = null
  try {
    raw = storage()?.getItem(key) ?? null
  } catch {
    // Unreadable storage: start from `initial`.
  }
  const store = atom<T>(parse(raw))
  const set = store.set.bind(store)
  store.set = (value) => {
    write(key, JSON.stringify(value))
    set(value)
  }
  syncTabs(store, (k, v) => {
    if (k === key) set(parse(v))
  })
  return store
}
