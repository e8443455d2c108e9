/** Browser sessions: started at sign-in, checked on each call, listed and ended by their owner. */
export { sessionsRoutes } from './sessions.routes.ts';
export {
  clearSessionCookies,
  csrfTokenFor,
  endOtherSessions,
  endProviderSessions,
  endSession,
  idleCutoff,
  SESSION_COOKIE,
  startSession,
} from './sessions.service.ts';
export { findSessionById, findSessionWithUser, touchSession } from './sessions.repo.ts';
