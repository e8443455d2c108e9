import { z } from 'zod';
import { ZCursor, ZId, ZIsoTime, ZPageQuery } from './common.ts';
import { ZItem, ZItemRole } from './items.ts';

/** Who a grant is for: one person (by id, or by the email they sign in with), a group of the item's workspace, or everyone in it. */
export const ZGrantPrincipalRequest = z.union([
  z.object({ type: z.literal('user'), id: ZId }),
  z.object({ type: z.literal('user'), email: z.email() }),
  z.object({ type: z.literal('group'), id: ZId }),
  z.object({ type: z.literal('workspace') }),
]);

/** `POST /items/:id/grants`: give a role on the item (and everything under it); an existing grant to the same principal changes. */
export const ZCreateGrantRequest = z.object({
  principal: ZGrantPrincipalRequest,
  role: ZItemRole,
  expiresAt: ZIsoTime.nullable().optional(),
});
export type TCreateGrantRequest = z.infer<typeof ZCreateGrantRequest>;

/** `PATCH /items/:id/grants/:grantId`: a new role, a new expiry (null: never), or both. */
export const ZUpdateGrantRequest = z
  .object({ role: ZItemRole.optional(), expiresAt: ZIsoTime.nullable().optional() })
  .refine((v) => v.role !== undefined || v.expiresAt !== undefined, { message: 'Give a role or an expiry to change', path: ['role'] });
export type TUpdateGrantRequest = z.infer<typeof ZUpdateGrantRequest>;

/** A person named in sharing: the name and the address they sign in with (null for an account with none). */
export const ZPersonWithEmail = z.object({ id: ZId, name: z.string(), email: z.string().nullable() });
export type TPersonWithEmail = z.infer<typeof ZPersonWithEmail>;

export const ZGrant = z.object({
  id: ZId,
  itemId: ZId,
  /** A group is named by its name; `email` is null for it and for the workspace. */
  principal: z.object({ type: z.enum(['user', 'group', 'workspace']), id: ZId, name: z.string(), email: z.string().nullable() }),
  role: ZItemRole,
  expiresAt: ZIsoTime.nullable(),
  createdAt: ZIsoTime,
  /**
   * Null for a grant on the item itself (changed or removed there); else the folder above it whose
   * grant holds here too, changed only on that folder.
   */
  inheritedFrom: z.object({ id: ZId, name: z.string() }).nullable(),
});
export type TGrant = z.infer<typeof ZGrant>;
/**
 * `GET /items/:id/grants`: who has access — the grants on the item, then those inherited from the
 * folders above it that the caller can see, nearest first — and who owns it.
 */
export const ZGrantList = z.object({ items: z.array(ZGrant), nextCursor: z.string().nullable(), owner: ZPersonWithEmail.nullable() });
export type TGrantList = z.infer<typeof ZGrantList>;
export const ZGrantParams = z.object({ id: ZId, grantId: ZId });

/** One item shared with the caller themself: what it is, who shared it, when, and with what role. */
export const ZSharedItem = z.object({
  item: ZItem,
  grantId: ZId,
  role: ZItemRole,
  sharedAt: ZIsoTime,
  sharedBy: ZPersonWithEmail.nullable(),
  /** The group it was shared with, when it reached the caller through a group they are in; null when shared with them themself. */
  group: z.object({ id: ZId, name: z.string() }).nullable(),
});
export type TSharedItem = z.infer<typeof ZSharedItem>;
export const ZSharedPosition = z.object({ at: ZIsoTime, id: ZId });
export type TSharedPosition = z.infer<typeof ZSharedPosition>;
export const ZSharedQuery = ZPageQuery(ZCursor(ZSharedPosition));
export type TSharedQuery = z.infer<typeof ZSharedQuery>;
export const ZSharedPage = z.object({ items: z.array(ZSharedItem), nextCursor: z.string().nullable() });
export type TSharedPage = z.infer<typeof ZSharedPage>;
