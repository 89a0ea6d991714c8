import type { FailureStrings, RefusalStrings } from './failures.en.ts'

/** Spanish failure sentences (every slice). */
export const failuresEs: FailureStrings = {
  failNetwork: 'No se pudo conectar con el servicio. Revisa tu conexión e inténtalo de nuevo.',
  failTimeout: 'El servicio tardó demasiado en responder. Inténtalo de nuevo.',
  failSignIn: 'Inicia sesión para continuar.',
  failForbidden: 'No puedes hacer eso aquí.',
  failBanned: 'No puedes publicar aquí: tienes un bloqueo.',
  failRateLimited: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.',
  failRoomOtherVenue: 'Esta sala pertenece a otro sitio.',
  failNotFound: 'Ya no está disponible.',
  failGeneric: 'Algo salió mal. Inténtalo de nuevo.',
}

/** Spanish refusals of a post into a room (§7). */
export const refusalsEs: RefusalStrings = {
  joinToPost: 'únete a esta sala para publicar en ella',
  leftRoom: 'saliste de esta sala — vuelve a unirte para publicar',
  joinRefused: 'esta sala no está abierta para unirse',
  joinAndPost: 'Unirse y publicar',
  rejoinAndPost: 'Volver a unirse y publicar',
}
