import type { TCreateWorkspaceRequest, TWorkspace } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function useWorkspaces() {
  return useQuery({
    queryKey: queryKeys.workspaces,
    queryFn: async () => (await api<{ items: TWorkspace[] }>('GET', '/workspaces')).items,
  });
}

export function useCreateWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TCreateWorkspaceRequest) => api<TWorkspace>('POST', '/workspaces', input),
    onSuccess: (created) => client.setQueryData<TWorkspace[]>(queryKeys.workspaces, (list) => [...(list ?? []), created]),
  });
}
