import { adminApi, type TAdminUser } from '@cabinet/contracts';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Read again while someone watches the instance: jobs and health change without them doing anything. */
const WATCHED = { refetchInterval: 15_000, staleTime: 5_000 } as const;

/** Its health is looked at once in 20 s by the server, whoever asks: read every 30 s. */
export const useAdminOverview = () =>
  useQuery({ queryKey: queryKeys.adminOverview, queryFn: () => call(adminApi.overview), refetchInterval: 30_000, staleTime: 10_000 });

export const useAdminSettings = () => useQuery({ queryKey: queryKeys.adminSettings, queryFn: async () => (await call(adminApi.settings)).items });

export const useAdminJobs = () => useQuery({ queryKey: queryKeys.adminJobs, queryFn: () => call(adminApi.jobs), ...WATCHED });

/** A list of the admin API, a page of 50 at a time, kept on screen while the next search runs. */
function usePages<T>(queryKey: readonly unknown[], page: (cursor: string | null) => Promise<{ items: T[]; nextCursor: string | null }>) {
  const query = useInfiniteQuery({
    queryKey,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => page(pageParam),
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) };
}

const cursorOf = (cursor: string | null) => (cursor ? { cursor } : {});

export const useAdminWorkspaces = (q: string) =>
  usePages(queryKeys.adminWorkspaces(q), (cursor) => call(adminApi.workspaces, { query: { limit: 50, ...(q ? { q } : {}), ...cursorOf(cursor) } }));

export const useAdminUsers = (q: string, status: '' | TAdminUser['status']) =>
  usePages(queryKeys.adminUsers(q, status), (cursor) =>
    call(adminApi.users, { query: { limit: 50, ...(q ? { q } : {}), ...(status ? { status } : {}), ...cursorOf(cursor) } }),
  );

export const useAdminAudit = () => usePages(queryKeys.adminAudit, (cursor) => call(adminApi.audit, { query: { limit: 50, ...cursorOf(cursor) } }));

/** An administrator's change: every admin view is read again after it (the lists, the counts, the audit). */
function useAdminChange<I, O>(mutationFn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => client.invalidateQueries({ queryKey: queryKeys.admin }) });
}

export const useSetQuota = () =>
  useAdminChange(({ id, quotaBytes }: { id: string; quotaBytes: number | null }) => call(adminApi.updateWorkspace, { params: { id }, body: { quotaBytes } }));

export const useUpdateUser = () =>
  useAdminChange(({ id, ...body }: { id: string; status?: TAdminUser['status']; isInstanceAdmin?: boolean }) =>
    call(adminApi.updateUser, { params: { id }, body }),
  );

export const useSignOutUser = () => useAdminChange((id: string) => call(adminApi.signOutUser, { params: { id } }));

export const useResetTwoStep = () => useAdminChange((id: string) => call(adminApi.resetTwoStep, { params: { id } }));

export const useRetryJob = () => useAdminChange((id: string) => call(adminApi.retryJob, { params: { id } }));

export const useDiscardJob = () => useAdminChange((id: string) => call(adminApi.discardJob, { params: { id } }));
