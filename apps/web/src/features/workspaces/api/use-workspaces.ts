import type { TCreateWorkspaceRequest, TWorkspace } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const workspacesKey = ['workspaces'] as const;

export function useWorkspaces() {
  return useQuery({
    queryKey: workspacesKey,
    queryFn: async () => (await api<{ items: TWorkspace[] }>('GET', '/workspaces')).items,
  });
}

export function useCreateWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TCreateWorkspaceRequest) => api<TWorkspace>('POST', '/workspaces', input),
    onSuccess: (created) => client.setQueryData<TWorkspace[]>(workspacesKey, (list) => [...(list ?? []), created]),
  });
}
