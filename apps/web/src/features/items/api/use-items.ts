import { FOLDER_PAGE, itemsApi, type TItem } from '@cabinet/contracts';
import { useInfiniteQuery, useQuery, queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** How often a file whose preview is being made is asked for again while it is shown. */
const PREVIEW_PENDING_POLL_MS = 3000;

/**
 * An item as the server has it now: its own entry, which every change to it (live, or this tab's)
 * refreshes. While a file's preview is being made it is asked for again every few seconds: a
 * picture made is told by the live stream, but a file found to have none (a kind without one, a
 * failure and its reason) by nothing.
 */
export const itemQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.item(id),
    queryFn: () => call(itemsApi.get, { params: { id } }),
    refetchInterval: (q) => (q.state.data?.kind === 'file' && q.state.data.preview?.state === 'pending' ? PREVIEW_PENDING_POLL_MS : false),
  });

export function useItem(id: string | undefined) {
  return useQuery({ ...itemQuery(id ?? ''), enabled: !!id });
}

/** For a panel opened on an item from a list: the item as the server has it now, `item` until that is in. */
export function useCurrentItem(item: TItem): TItem {
  return useItem(item.id).data ?? item;
}

export function useAncestors(id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.ancestors(id ?? ''),
    queryFn: async () => (await call(itemsApi.ancestors, { params: { id: id! } })).items,
    enabled: !!id,
  });
}

/** A folder's children, page by page (keyset cursors): the list asks for the next page as it scrolls near the end. */
export function useChildren(ws: string, folderId: string | undefined) {
  const query = useInfiniteQuery({
    queryKey: queryKeys.children(ws, folderId ?? ''),
    enabled: !!folderId,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => call(itemsApi.children, { params: { ws, id: folderId! }, query: { limit: FOLDER_PAGE, cursor: pageParam ?? undefined } }),
    getNextPageParam: (last) => last.nextCursor,
  });
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) };
}

export function useStarred(ws: string) {
  return useQuery({ queryKey: queryKeys.starred(ws), queryFn: async () => (await call(itemsApi.starred, { params: { ws } })).items });
}

export function useRecent(ws: string) {
  return useQuery({ queryKey: queryKeys.recent(ws), queryFn: async () => (await call(itemsApi.recent, { params: { ws } })).items });
}

export function useTrash(ws: string) {
  return useQuery({ queryKey: queryKeys.trash(ws), queryFn: async () => (await call(itemsApi.trashList, { params: { ws }, query: { limit: 1000 } })).items });
}
