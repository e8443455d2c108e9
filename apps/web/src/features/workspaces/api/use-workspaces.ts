import { workspacesApi, type TCreateWorkspaceRequest, type TWorkspace } from '@cabinet/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The workspaces the person belongs to. */
export const workspacesQuery = queryOptions({
  queryKey: queryKeys.workspaces,
  queryFn: async () => (await call(workspacesApi.list)).items,
});

export function useWorkspaces() {
  return useQuery(workspacesQuery);
}

export function useCreateWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TCreateWorkspaceRequest) => call(workspacesApi.create, { body: input }),
    onSuccess: (created) => client.setQueryData<TWorkspace[]>(queryKeys.workspaces, (list) => [...(list ?? []), created]),
  });
}
