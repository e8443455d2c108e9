import { z } from 'zod';
import { ZCursor, ZId, ZIsoTime, ZPageQuery } from './common.ts';
import { ZActivityAction } from './events.ts';

/** Where a page of the activity record ends: the last entry's id (entries come newest first). */
export const ZActivityPosition = z.object({ id: z.number().int().positive() });
export type TActivityPosition = z.infer<typeof ZActivityPosition>;

const ZDay = z.union([ZIsoTime, z.iso.date()], { error: 'Give a date (2026-05-01) or a time with its offset' });

/**
 * `GET /workspaces/:ws/activity` (owners and admins): newest first, filtered by who did it, what
 * they did, which item, and when (`after` and `before`: a date or a time; a date alone means the
 * start of that day, UTC). `format=csv` answers every matching entry as a CSV file instead.
 */
export const ZWorkspaceActivityQuery = ZPageQuery(ZCursor(ZActivityPosition)).extend({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  actorId: ZId.optional(),
  action: ZActivityAction.optional(),
  itemId: ZId.optional(),
  after: ZDay.optional(),
  before: ZDay.optional(),
  format: z.enum(['json', 'csv']).default('json'),
});
export type TWorkspaceActivityQuery = z.input<typeof ZWorkspaceActivityQuery>;

/** `GET /items/:id/activity`: what happened to one item, newest first. */
export const ZItemActivityQuery = ZPageQuery(ZCursor(ZActivityPosition)).extend({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const ZActivityActorKind = z.enum(['user', 'token', 'link', 'system']);

/** One entry of the activity record, as the audit log and an item's history show it. */
export const ZActivityEntry = z.object({
  id: z.string(),
  at: ZIsoTime,
  /** Who did it: a person (in the browser, or through one of their API tokens), a link, or Cabinet itself. Name and email are null once the account is gone. */
  actor: z.object({ kind: ZActivityActorKind, id: ZId.nullable(), name: z.string().nullable(), email: z.string().nullable() }),
  action: ZActivityAction,
  /** The item it was about (its name as recorded when the item is gone), or null (a sign-in, a member change). */
  item: z.object({ id: ZId, name: z.string().nullable(), kind: z.enum(['folder', 'file', 'document']).nullable() }).nullable(),
  /** Shown to the workspace's owner and admins only; null for anyone else. */
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** What the action needs to be understood: names (`name`, `previousName`), roles, the version… never secrets. */
  data: z.record(z.string(), z.unknown()),
  /**
   * Whom it was about, named as they are now: the person added, removed, given a role, put in or
   * taken out of a group or shared with; the group or workspace shared with. Null for other actions.
   * `name` is null once the person or group is gone, `email` when the reader may not see addresses.
   */
  subject: z.object({ kind: z.enum(['user', 'group', 'workspace']), id: ZId.nullable(), name: z.string().nullable(), email: z.string().nullable() }).nullable(),
});
export type TActivityEntry = z.infer<typeof ZActivityEntry>;

export const ZActivityPage = z.object({ items: z.array(ZActivityEntry), nextCursor: z.string().nullable() });
export type TActivityPage = z.infer<typeof ZActivityPage>;
