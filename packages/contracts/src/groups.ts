import { z } from 'zod';
import { ZId, ZIsoTime, ZText, ZWorkspaceParams } from './common.ts';
import { ZWorkspaceRole } from './workspaces.ts';

/** A group's name: 1–100 characters on one line, unique in its workspace whatever the case. */
export const ZGroupName = ZText(100).min(1, 'Give the group a name');

/** A group: a named set of members of one workspace, shared with as one. */
export const ZGroup = z.object({
  id: ZId,
  workspaceId: ZId,
  name: z.string(),
  memberCount: z.number().int(),
  createdAt: ZIsoTime,
});
export type TGroup = z.infer<typeof ZGroup>;
export const ZGroupList = z.object({ items: z.array(ZGroup), nextCursor: z.string().nullable() });
export type TGroupList = z.infer<typeof ZGroupList>;

export const ZGroupParams = ZWorkspaceParams.extend({ groupId: ZId });
export const ZGroupMemberParams = ZGroupParams.extend({ userId: ZId });

/** `POST /workspaces/:ws/groups` and `PATCH …/:groupId`: its name. */
export const ZGroupRequest = z.object({ name: ZGroupName });
export type TGroupRequest = z.infer<typeof ZGroupRequest>;

/** Where a person's place in a group comes from: added by hand, or kept in step with their identity provider's groups claim. */
export const ZGroupMemberSource = z.enum(['manual', 'idp']);

export const ZGroupMember = z.object({
  userId: ZId,
  name: z.string(),
  email: z.string(),
  role: ZWorkspaceRole,
  source: ZGroupMemberSource,
  addedAt: ZIsoTime,
});
export type TGroupMember = z.infer<typeof ZGroupMember>;
export const ZGroupMemberList = z.object({ items: z.array(ZGroupMember), nextCursor: z.string().nullable() });

/** `POST /workspaces/:ws/groups/:groupId/members`: people of the workspace (not guests) to add; those already in it stay as they are. */
export const ZAddGroupMembersRequest = z.object({ userIds: z.array(ZId).min(1, 'Choose someone to add').max(100, 'At most 100 at once') });
export type TAddGroupMembersRequest = z.infer<typeof ZAddGroupMembersRequest>;
