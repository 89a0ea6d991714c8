/**
 * Strings: three slices (`comments`, `room`, `moderation`, §4.4 rule 7); English built in, Spanish
 * (and any other locale) registered by importing its module.
 * A `<vk-strings-provider>` overrides them for everything inside it; an element's own `strings`
 * property wins over the provider.
 */
import { createContext } from '../context.ts'
import { commentsEn, type CommentsStrings } from './comments.en.ts'
import { roomEn, type RoomStrings } from './room.en.ts'
import type { ModerationStrings } from './moderation.en.ts'
import { LOCALES, registerLocale } from './registry.ts'

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

/**
 * Built-in locales. English ships in every build; other locales are registered by importing their
 * module (`venuekit/elements/locales/es`, or the `venuekit-es.js` script next to the bundle), so a page
 * pays only for the languages it uses. English's `moderation` slice is added by the moderation queue's
 * own module (`LOCALES.en.moderation ??= moderationEn` in moderation-queue.element.ts), so the script bundle, which leaves the operator's element to
 * `venuekit-operator.js`, does not carry it.
 */
LOCALES.en ??= { comments: commentsEn, room: roomEn } as StringSlices
export { LOCALES, registerLocale }

/** The built-in strings for a locale: exact match, then language, then English. */
export function baseStrings(locale: string | undefined): StringSlices {
  if (!locale) return LOCALES.en
  return LOCALES[locale.toLowerCase()] ?? LOCALES[locale.split('-')[0].toLowerCase()] ?? LOCALES.en
}

/** A string key, so two copies of venuekit on one page share the same context. */
export const stringsContext = createContext<StringsContextValue>('venuekit-strings')
