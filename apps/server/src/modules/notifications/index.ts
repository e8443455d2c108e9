/** Telling people what concerns them (shared with them, mentioned, replied), read from the activity record; and mailing what they left unread (ADR 0034). */
export { notificationsRoutes } from './notifications.routes.ts';
export { deriveNotifications, notificationsReader } from './derive-notifications.ts';
export { mailUnreadNotifications } from './notification-mail.ts';
