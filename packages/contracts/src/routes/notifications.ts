import { defineRoute } from './define-route.ts';

/** The caller's notifications, across their workspaces, and whether they are mailed (ADR 0034). */
export const notificationsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/notifications',
    tag: 'notifications',
    summary: 'Your notifications, newest first, with how many are unread',
    description:
      '`unread=true` lists only those not read yet. Pages by `cursor` (the `nextCursor` of the page before). ' +
      'An item you can no longer see is answered as `item: null`.',
    auth: 'read',
    public: true,
    query: 'ZNotificationsQuery',
    responses: { 200: 'ZNotificationPage' },
    errors: [],
  }),
  events: defineRoute({
    method: 'GET',
    path: '/notifications/events',
    tag: 'notifications',
    summary: 'When your notifications change (Server-Sent Events), for pages that watch no workspace',
    description:
      '`event: notifications` (no id) says your notifications changed, in any workspace: read `GET /notifications` again. ' +
      "A workspace's live changes (`GET /workspaces/:ws/events`) carry the same notices: a page watching one needs no second stream. " +
      'Comments (`: keepalive`) keep the connection open.',
    auth: 'read',
    public: true,
    produces: 'event-stream',
    errors: [],
  }),
  read: defineRoute({
    method: 'POST',
    path: '/notifications/read',
    tag: 'notifications',
    summary: 'Mark notifications as read: some by id, or all',
    auth: 'write',
    public: true,
    body: 'ZMarkNotificationsReadRequest',
    responses: { 200: 'ZMarkNotificationsReadResult' },
    errors: [],
  }),
  settings: defineRoute({
    method: 'GET',
    path: '/me/notification-settings',
    tag: 'notifications',
    summary: 'Whether you are mailed about notifications you have not read',
    auth: 'read',
    public: true,
    responses: { 200: 'ZNotificationSettings' },
    errors: [],
  }),
  updateSettings: defineRoute({
    method: 'PATCH',
    path: '/me/notification-settings',
    tag: 'notifications',
    summary: 'Turn mail about unread notifications on or off',
    auth: 'write',
    public: true,
    body: 'ZNotificationSettings',
    responses: { 200: 'ZNotificationSettings' },
    errors: [],
  }),
};
