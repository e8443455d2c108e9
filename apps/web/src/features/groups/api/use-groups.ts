import { groupsApi, type TGroupEvent } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { applyGroupChange } from '../../../lib/changes.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The workspace's groups by name (not for guests). */
export function useGroups(ws: string, enabled = true) {
  return useQuery({ queryKey: queryKeys.groups(ws), queryFn: async () => (await call(groupsApi.list, { params: { ws } })).items, enabled });
}

/** The people of one group. */
export function useGroupMembers(ws: string, groupId: string) {
  return useQuery({ queryKey: queryKeys.groupMembers(ws, groupId), queryFn: async () => (await call(groupsApi.members, { params: { ws, groupId } })).items });
}

/** A change to a workspace's groups, through the same mapping as the live stream's `group` events (which skip this tab's own). */
function useGroupChange<I, O>(ws: string, type: TGroupEvent['type'], mutationFn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => applyGroupChange(client, ws, type) });
}

export function useCreateGroup(ws: string) {
  return useGroupChange(ws, 'group.created', (name: string) => call(groupsApi.create, { params: { ws }, body: { name } }));
}

export function useRenameGroup(ws: string) {
  return useGroupChange(ws, 'group.renamed', ({ groupId, name }: { groupId: string; name: string }) =>
    call(groupsApi.rename, { params: { ws, groupId }, body: { name } }),
  );
}

export function useDeleteGroup(ws: string) {
  return useGroupChange(ws, 'group.deleted', (groupId: string) => call(groupsApi.remove, { params: { ws, groupId } }));
}

export function useAddGroupMembers(ws: string) {
  return useGroupChange(ws, 'group.member_added', ({ groupId, userIds }: { groupId: string; userIds: string[] }) =>
    call(groupsApi.addMembers, { params: { ws, groupId }, body: { userIds } }),
  );
}

export function useRemoveGroupMember(ws: string) {
  return useGroupChange(ws, 'group.member_removed', ({ groupId, userId }: { groupId: string; userId: string }) =>
    call(groupsApi.removeMember, { params: { ws, groupId, userId } }),
  );
}
