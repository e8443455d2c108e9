import { grantsApi, workspacesApi, type TCreateGrantRequest, type TItem, type TItemRole } from '@cabinet/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { applyChange } from '../../../lib/changes.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Who has access to an item: its grants, those inherited from the folders above, and its owner. */
export function useGrants(id: string) {
  return useQuery({ queryKey: queryKeys.grants(id), queryFn: () => call(grantsApi.list, { params: { id } }) });
}

/** People of the workspace matching what was typed, for choosing whom to share with; none for a guest, who may not see the member list. */
export function useMemberSuggestions(ws: string, q: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.memberSuggestions(ws, q),
    queryFn: async () => (await call(workspacesApi.members, { params: { ws }, query: { limit: 8, q: q || undefined } })).items,
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** Sharing, changing and withdrawing grants on one item; each goes through `applyChange`, as the live event would. */
export function useShareMutations(ws: string, item: TItem) {
  const client = useQueryClient();
  const changed = () => applyChange(client, ws, { type: 'item.shared', itemId: item.id, parentIds: [item.parentId] });
  return {
    share: useMutation({ mutationFn: (body: TCreateGrantRequest) => call(grantsApi.create, { params: { id: item.id }, body }), onSuccess: changed }),
    update: useMutation({
      mutationFn: (v: { grantId: string; role?: TItemRole; expiresAt?: string | null }) =>
        call(grantsApi.update, {
          params: { id: item.id, grantId: v.grantId },
          body: { ...(v.role ? { role: v.role } : {}), ...(v.expiresAt !== undefined ? { expiresAt: v.expiresAt } : {}) },
        }),
      onSuccess: changed,
    }),
    remove: useMutation({ mutationFn: (grantId: string) => call(grantsApi.remove, { params: { id: item.id, grantId } }), onSuccess: changed }),
  };
}
