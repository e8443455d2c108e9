/**
 * Telling people what concerns them (shared with them, mentioned, replied, commented on, files through their file request, invited),
 * read from the activity record; mailing what they left unread; pruning past NOTIFICATION_RETENTION_DAYS (ADR 0034).
 */
export { notificationsRoutes } from './notifications.routes.ts';
export { deriveNotifications, notificationsReader } from './derive-notifications.ts';
export { mailUnreadNotifications } from './notification-mail.ts';
export { pruneNotifications } from './notifications.service.ts';
