/**
 * Strings: three slices (`comments`, `room`, `moderation`, §4.4 rule 7), English and Spanish.
 * A `<vk-strings-provider>` overrides them for everything inside it; an element's own `strings`
 * property wins over the provider.
 */
import { createContext } from '@lit/context'
import { commentsEn, type CommentsStrings } from './comments.en.ts'
import { commentsEs } from './comments.es.ts'
import { roomEn, type RoomStrings } from './room.en.ts'
import { roomEs } from './room.es.ts'
import { moderationEn, type ModerationStrings } from './moderation.en.ts'
import { moderationEs } from './moderation.es.ts'

export type { CommentsStrings, RoomStrings, ModerationStrings }

export interface StringSlices {
  comments: CommentsStrings
  room: RoomStrings
  moderation: ModerationStrings
}
export type Slice = keyof StringSlices

export interface StringsContextValue {
  locale: string
  overrides: { [K in Slice]?: Partial<StringSlices[K]> }
}

export const LOCALES: Record<string, StringSlices> = {
  en: { comments: commentsEn, room: roomEn, moderation: moderationEn },
  es: { comments: commentsEs, room: roomEs, moderation: moderationEs },
}

/** The built-in strings for a locale: exact match, then language, then English. */
export function baseStrings(locale: string | undefined): StringSlices {
  if (!locale) return LOCALES.en
  return LOCALES[locale] ?? LOCALES[locale.split('-')[0].toLowerCase()] ?? LOCALES.en
}

/** A string key, so two copies of venuekit on one page share the same context. */
export const stringsContext = createContext<StringsContextValue>('venuekit-strings')
