import { z } from 'zod';
import { ZId } from './common.ts';

/**
 * What can happen to what a workspace holds, as the activity record names it (one row per change,
 * written by the change itself) and as the live stream sends it.
 */
export const ZActivityAction = z.enum([
  'item.created',
  'item.renamed',
  'item.moved',
  // The content changed: a document's text, or a file's new version.
  'item.updated',
  'item.trashed',
  'item.restored',
  'item.deleted',
  // A grant given, changed or withdrawn.
  'item.shared',
  // A WebDAV client's lock on it broken from the browser or the API (data: whose, and the client).
  'item.unlocked',
  // A thumbnail of a file's bytes became ready (Cabinet itself, ADR 0040): its listings show it.
  'file.previewed',
  'comment.added',
  'comment.edited',
  'comment.resolved',
  'comment.reopened',
  'comment.deleted',
  // Who is in the workspace (no item: item_id is null, and the live stream does not send them).
  'member.added',
  'member.role_changed',
  'member.removed',
  'invitation.created',
  'invitation.revoked',
  // Mailed again with a new link (counts towards the sending limits).
  'invitation.resent',
  'invitation.accepted',
  // Someone's account, recorded in each workspace they belong to (no item; not sent live).
  'session.started',
  'session.ended',
  'token.created',
  'token.revoked',
  // A script used an API token (at most once an hour per token).
  'token.used',
  // Groups and who is in them (no item either; the live stream sends them as `event: group` to
  // everyone in the workspace but its guests).
  'group.created',
  'group.renamed',
  'group.deleted',
  'group.member_added',
  'group.member_removed',
  // Public links: made, changed, revoked by a manager; opened and downloaded by a visitor (actor `link`).
  'link.created',
  'link.updated',
  'link.revoked',
  'link.viewed',
  'link.downloaded',
  // The workspace's link policy changed (no item).
  'link.policy_changed',
  // The language of the workspace's texts for search changed (no item).
  'search.language_changed',
]);
export type TActivityAction = z.infer<typeof ZActivityAction>;

/**
 * A change in a workspace, as `GET /workspaces/:ws/events` streams it (Server-Sent Events: `id:`
 * the activity record's id, `event: item`, one `data:` line of JSON). It names what changed and the
 * folders whose listings it touches; the browser fetches what it shows again. A person only hears
 * of folders they can see. `event: reset` (no data) says changes may have been missed: refetch.
 * A stream opened with `?after=` the `Last-Change-Id` of the answers a page shows replays the changes
 * recorded since (ADR 0046); one opened afresh without it replays the changes of the last minute —
 * what a page read just before it may not show. Either then says `event: ready` with an `id:` the
 * browser names when it reconnects.
 */
export const ZItemEvent = z.object({
  type: ZActivityAction,
  itemId: ZId,
  /** The folders whose listings changed: the parent, and for a move the old parent too. */
  parentIds: z.array(ZId),
  /** The browser tab that made the change (its X-Client-Id), which already shows it. */
  clientId: z.string().nullable(),
});
export type TItemEvent = z.infer<typeof ZItemEvent>;

/**
 * A change to the workspace's groups (`event: group` on the same stream, to its members, not its
 * guests): a group made, renamed or deleted, or someone added or taken out. What is shared with a
 * group reaches its people, so their Shared with me, and every list of groups, may have changed.
 */
export const ZGroupEvent = z.object({
  type: ZActivityAction.extract(['group.created', 'group.renamed', 'group.deleted', 'group.member_added', 'group.member_removed']),
  clientId: z.string().nullable(),
});
export type TGroupEvent = z.infer<typeof ZGroupEvent>;

/** `GET /workspaces/:ws/events?after=`: the `Last-Change-Id` of the answers the page shows (ADR 0046). */
export const ZEventsQuery = z.object({ after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() });
export type TEventsQuery = z.infer<typeof ZEventsQuery>;
