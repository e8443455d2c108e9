/** Telling people what concerns them (shared with them, mentions, replies), read from the activity record; and mailing what they left unread (ADR 0034). */
export { notificationsRoutes } from './notifications.routes.ts';
export { deriveNotifications, NotificationDeriver } from './notifications.service.ts';
export { mailUnreadNotifications } from './notification-mail.ts';
