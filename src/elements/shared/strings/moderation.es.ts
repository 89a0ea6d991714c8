import type { ModerationStrings } from './moderation.en.ts'

/** Spanish strings of the `moderation` slice. */
export const moderationEs: ModerationStrings = {
  queueLabel: 'Cola de moderación',
  open: 'Abiertos',
  actioned: 'Resueltos',
  loading: 'Cargando…',
  error: 'No se pudo cargar la cola.',
  retry: 'Reintentar',
  empty: 'Nada que revisar.',
  forbidden: 'no puedes moderar este sitio',
  loadMore: 'Cargar más',
  keep: 'Mantener',
  hide: 'Ocultar',
  ban: 'Bloquear',
  unban: 'Desbloquear',
  pending: 'Procesando…',
  done: 'Hecho: {action}',
  failed: 'No se pudo {action}. Inténtalo de nuevo.',
  reports: '{count, plural, one {# denuncia} other {# denuncias}}',
  thresholdHidden: 'Oculta por denuncias, pendiente de revisión',
  hiddenHere: 'Oculta en este sitio',
  openPost: 'Abrir publicación',
  platformQueue: 'Cola de la plataforma',
}
