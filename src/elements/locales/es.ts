/** Registers the complete Spanish locale (`locale="es"`). Import once, anywhere on the page. */
import { registerLocale } from '../shared/strings/registry.ts'
import { commentsEs } from '../shared/strings/comments.es.ts'
import { roomEs } from '../shared/strings/room.es.ts'
import { moderationEs } from '../shared/strings/moderation.es.ts'

export const es = { comments: commentsEs, room: roomEs, moderation: moderationEs }
registerLocale('es', es)
