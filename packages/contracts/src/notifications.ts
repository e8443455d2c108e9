import { z } from 'zod';
import { ZCursor, ZId, ZIsoTime } from './common.ts';
import { ZPersonRef } from './documents.ts';
import { ZItemKind } from './items.ts';

/**
 * Why a person is told: something was shared with them (`shared`), they were mentioned in a
 * document or a comment (`mentioned`), a thread they wrote in got a reply (`replied`), they were
 * invited to a workspace by their address (`invited`), someone commented on an item they own
 * (`commented`), or files arrived through a file request they made (`uploaded`).
 */
export const ZNotificationKind = z.enum(['shared', 'mentioned', 'replied', 'invited', 'commented', 'uploaded']);
export type TNotificationKind = z.infer<typeof ZNotificationKind>;

/**
 * One notification. `item` is null when the person can no longer see it (access withdrawn, in the
 * trash): then nothing about it is told but that something happened. `threadId` and `commentId`
 * name the place in a document (a comment) to open at. `invitationId` is the invitation an
 * `invited` notification opens (`GET /me/invitations/:id`); `count` how many files arrived through
 * the file request of an `uploaded` one (the folder is its item; the visitors have no account, so
 * `actor` is null).
 */
export const ZNotification = z.object({
  id: ZId,
  kind: ZNotificationKind,
  workspace: z.object({ id: ZId, slug: z.string(), name: z.string() }),
  item: z.object({ id: ZId, kind: ZItemKind, name: z.string() }).nullable(),
  actor: ZPersonRef.nullable(),
  threadId: ZId.nullable(),
  commentId: ZId.nullable(),
  invitationId: ZId.nullable(),
  count: z.number().int().min(0).nullable(),
  createdAt: ZIsoTime,
  readAt: ZIsoTime.nullable(),
});
export type TNotification = z.infer<typeof ZNotification>;

/** What happened, in a sentence (the bell's list and the mail): who, what, on which item, or that it can no longer be opened. */
export function describeNotification(n: TNotification): string {
  const who = n.actor?.name || 'Someone';
  const what = n.item ? `“${n.item.name}”` : 'an item you can no longer open';
  switch (n.kind) {
    case 'shared':
      return `${who} shared ${what} with you`;
    case 'mentioned':
      return n.commentId ? `${who} mentioned you in a comment on ${what}` : `${who} mentioned you in ${what}`;
    case 'replied':
      return `${who} replied to a comment on ${what}`;
    case 'invited':
      return `${who} invited you to ${n.workspace.name}`;
    case 'commented':
      return `${who} commented on ${what}`;
    case 'uploaded': {
      const files = n.count === 1 ? 'A file was' : `${n.count ?? 'Some'} files were`;
      return n.item
        ? `${files} uploaded to ${what} through your file request`
        : `${files} uploaded through your file request to an item you can no longer open`;
    }
  }
}

export const ZNotificationPosition = z.object({ id: ZId });
export const ZNotificationsQuery = z.object({
  cursor: ZCursor(ZNotificationPosition).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** `true`: only those not read yet. */
  unread: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export type TNotificationsQuery = z.infer<typeof ZNotificationsQuery>;

/** Newest first, with how many of all the caller's notifications are unread. */
export const ZNotificationPage = z.object({ items: z.array(ZNotification), nextCursor: z.string().nullable(), unreadCount: z.number().int().min(0) });
export type TNotificationPage = z.infer<typeof ZNotificationPage>;

/** Mark some (`ids`, the caller's own; others are ignored) or `all` as read. */
export const ZMarkNotificationsReadRequest = z
  .object({ ids: z.array(ZId).min(1).max(500).optional(), all: z.literal(true).optional() })
  .refine((r) => (r.ids === undefined) !== (r.all === undefined), 'Give ids or all, not both');
export type TMarkNotificationsReadRequest = z.infer<typeof ZMarkNotificationsReadRequest>;
export const ZMarkNotificationsReadResult = z.object({ unreadCount: z.number().int().min(0) });

/** Per person: mail about notifications still unread a few minutes after they came. */
export const ZNotificationSettings = z.object({ emailUnread: z.boolean() });
export type TNotificationSettings = z.infer<typeof ZNotificationSettings>;
