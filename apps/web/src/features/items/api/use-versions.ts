import { versionsApi, type TItem } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { applyChange } from '../../../lib/changes.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** A file's versions, newest first (fetched again when the file gets a new one). */
export function useVersions(item: Pick<TItem, 'id' | 'version' | 'kind'>) {
  return useQuery({
    queryKey: [...queryKeys.versions(item.id), item.version],
    queryFn: async () => (await call(versionsApi.list, { params: { id: item.id } })).items,
    enabled: item.kind === 'file',
  });
}

/** Name, delete and restore a file's versions; each answer refreshes the list, a restore the file's entry in every listing too. */
export function useVersionMutations(item: TItem) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.versions(item.id) });
  return {
    name: useMutation({
      mutationFn: (v: { versionId: string; name: string | null }) =>
        call(versionsApi.update, { params: { id: item.id, versionId: v.versionId }, body: { name: v.name } }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (versionId: string) => call(versionsApi.remove, { params: { id: item.id, versionId } }),
      onSuccess: refresh,
    }),
    restore: useMutation({
      mutationFn: (versionId: string) => call(versionsApi.restore, { params: { id: item.id, versionId } }),
      onSuccess: (result) => {
        applyChange(client, item.workspaceId, { type: 'item.updated', itemId: item.id, parentIds: [item.parentId], item: result.item });
        return refresh();
      },
    }),
  };
}
