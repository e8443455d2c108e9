import { workspacesApi, type TCreateWorkspaceRequest, type TWorkspace } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

export const workspacesKey = ['workspaces'] as const;

export function useWorkspaces() {
  return useQuery({
    queryKey: workspacesKey,
    queryFn: async () => (await call(workspacesApi.list)).items,
  });
}

export function useCreateWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TCreateWorkspaceRequest) => call(workspacesApi.create, { body: input }),
    onSuccess: (created) => client.setQueryData<TWorkspace[]>(workspacesKey, (list) => [...(list ?? []), created]),
  });
}
