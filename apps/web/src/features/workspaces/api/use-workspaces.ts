import { workspacesApi, type TCreateWorkspaceRequest, type TWorkspace } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function useWorkspaces() {
  return useQuery({
    queryKey: queryKeys.workspaces,
    queryFn: async () => (await call(workspacesApi.list)).items,
  });
}

export function useCreateWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TCreateWorkspaceRequest) => call(workspacesApi.create, { body: input }),
    onSuccess: (created) => client.setQueryData<TWorkspace[]>(queryKeys.workspaces, (list) => [...(list ?? []), created]),
  });
}
