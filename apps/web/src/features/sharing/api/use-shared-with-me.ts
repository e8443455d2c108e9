import { grantsApi } from '@cabinet/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Shared with me, page by page, newest share first (apart from use-sharing.ts: the signed-in home lists these, and shares nothing). */
export function useSharedWithMe(ws: string) {
  const query = useInfiniteQuery({
    queryKey: queryKeys.shared(ws),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => call(grantsApi.sharedWithMe, { params: { ws }, query: { limit: 100, cursor: pageParam ?? undefined } }),
    getNextPageParam: (last) => last.nextCursor,
  });
  const items = query.data?.pages.flatMap((p) => p.items);
  // A page can come back empty with more to follow (what it held is out of sight): read on until something shows or nothing is left.
  const empty = !!items && items.length === 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (empty && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [empty, hasNextPage, isFetchingNextPage, fetchNextPage]);
  return { ...query, items, searching: empty && hasNextPage };
}
