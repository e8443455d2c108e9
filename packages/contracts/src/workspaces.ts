import { z } from 'zod';
import { ZCursor, ZId, ZText, ZWorkspaceSlug } from './common.ts';

export const ZWorkspaceRole = z.enum(['owner', 'admin', 'member', 'guest']);
export type TWorkspaceRole = z.infer<typeof ZWorkspaceRole>;

/** PRODUCT.md §7: `{ id, slug, name, role, rootId, homeId, quotaBytes, usedBytes }`. */
export const ZWorkspace = z.object({
  id: ZId,
  slug: z.string(),
  name: z.string(),
  role: ZWorkspaceRole,
  rootId: ZId,
  homeId: ZId,
  /** Null when there is no quota, and for guests, who are not shown the workspace's figures. */
  quotaBytes: z.number().int().nullable(),
  /** Null for guests. */
  usedBytes: z.number().int().nullable(),
});
export type TWorkspace = z.infer<typeof ZWorkspace>;

export const ZCreateWorkspaceRequest = z.object({
  name: ZText(100).min(1, 'Give the workspace a name'),
  slug: ZWorkspaceSlug.optional(),
});
export type TCreateWorkspaceRequest = z.infer<typeof ZCreateWorkspaceRequest>;

export const ZWorkspaceList = z.object({ items: z.array(ZWorkspace), nextCursor: z.string().nullable() });

/** A member as other members see them (guests see no member list, PRODUCT.md §6). */
export const ZMember = z.object({
  userId: ZId,
  name: z.string(),
  email: z.string(),
  role: ZWorkspaceRole,
  /** `deactivated`: the account can no longer sign in (listed only with `include=deactivated`). */
  status: z.enum(['active', 'deactivated']).optional(),
});
export type TMember = z.infer<typeof ZMember>;
export const ZMemberList = z.object({ items: z.array(ZMember), nextCursor: z.string().nullable() });
/** A position in the member list, which is ordered by name, then id. */
export const ZMembersPosition = z.object({ name: z.string(), id: ZId });
export type TMembersPosition = z.infer<typeof ZMembersPosition>;
export const ZMembersQuery = z.object({
  /** Part of a name or email, as typed after `@` in a document. */
  q: ZText(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: ZCursor(ZMembersPosition).optional(),
  /** `deactivated`: deactivated accounts too, shown as such (owners and admins only). */
  include: z.enum(['deactivated']).optional(),
  /** `guests`: members only, as when choosing people for a group. */
  exclude: z.enum(['guests']).optional(),
});
export type TMembersQuery = z.infer<typeof ZMembersQuery>;
