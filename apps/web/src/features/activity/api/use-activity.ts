import { activityApi, urlOf, type TActivityAction, type TWorkspaceActivityQuery } from '@cabinet/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The audit log's filters as the page holds them (empty: not filtered). */
export interface ActivityFilters {
  actorId?: string | undefined;
  action?: TActivityAction | undefined;
  itemId?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

const PAGE = 50;

/** What happened to one item, newest first, page by page. */
export function useItemActivity(id: string) {
  const query = useInfiniteQuery({
    queryKey: queryKeys.itemActivity(id),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => call(activityApi.item, { params: { id }, query: { limit: 20, cursor: pageParam ?? undefined } }),
    getNextPageParam: (last) => last.nextCursor,
  });
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) };
}

/** The workspace's audit log with its filters, newest first, page by page ("Show more"). */
export function useWorkspaceActivity(ws: string, filters: ActivityFilters) {
  const query = useInfiniteQuery({
    queryKey: queryKeys.workspaceActivity(ws, filters),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => call(activityApi.workspace, { params: { ws }, query: { ...filters, limit: PAGE, cursor: pageParam ?? undefined } }),
    getNextPageParam: (last) => last.nextCursor,
  });
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) };
}

/** Where the browser downloads the filtered log as CSV. */
export function activityCsvUrl(ws: string, filters: ActivityFilters): string {
  const query: TWorkspaceActivityQuery = { ...filters, format: 'csv' };
  return urlOf(activityApi.workspace, { ws }, query);
}
