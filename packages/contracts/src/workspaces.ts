import { z } from 'zod';
import { ZCursor, ZId, ZText, ZWorkspaceSlug } from './common.ts';

export const ZWorkspaceRole = z.enum(['owner', 'admin', 'member', 'guest']);
export type TWorkspaceRole = z.infer<typeof ZWorkspaceRole>;

/**
 * What the caller may do in a workspace, as the server decides it (PRODUCT.md §6's workspace
 * roles): the server checks each call against the same answers, and the browser offers a screen
 * or an action only when its ability is true. What the caller may do with an item is the item's
 * own `abilities`.
 */
export const ZWorkspaceAbilities = z.object({
  /** Put things in the shared root ("Workspace") and in one's own "My files" (a guest sees only what is shared with them). */
  createInRoots: z.boolean(),
  /** See who is in the workspace (the member list, its groups, people's email addresses), and so share with a group or the whole workspace. */
  seeMembers: z.boolean(),
  /** See how much room the workspace's files take, and its quota. */
  seeUsage: z.boolean(),
  /** Invite people, change their roles, remove them; see deactivated accounts. */
  manageMembers: z.boolean(),
  /** Make, rename and delete groups, and choose who is in them. */
  manageGroups: z.boolean(),
  /** See and revoke every live link of the workspace, and set its link policy. */
  manageLinks: z.boolean(),
  /** Change the workspace's settings: the language it is searched in. */
  changeSettings: z.boolean(),
  /** Read the audit log (and export it), and see where changes came from (network addresses, browsers). */
  readAudit: z.boolean(),
  /** Hand the workspace to another member, who becomes its owner. */
  handOver: z.boolean(),
});
export type TWorkspaceAbilities = z.infer<typeof ZWorkspaceAbilities>;
export type TWorkspaceAbility = keyof TWorkspaceAbilities;

/** PRODUCT.md §7: `{ id, slug, name, role, rootId, homeId, quotaBytes, usedBytes }`, and what the caller may do there. */
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
  abilities: ZWorkspaceAbilities,
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
