import { searchApi, workspacesApi, type TSearchQuery } from '@cabinet/contracts';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { isEmptySearch } from '../search-filters.ts';

/** How many results the palette shows; the search page has the rest. */
export const PALETTE_RESULTS = 8;
const PAGE = 20;

/**
 * The palette's results for what is typed. Each text is a query of its own: one typed further
 * abandons the request of the text before it (its `signal`), and the results shown stay those of
 * the last answer until the next one arrives, so the list does not blink at every keystroke.
 */
export function useQuickSearch(ws: string, q: string) {
  const query = { q: q.trim(), limit: PALETTE_RESULTS };
  return useQuery({
    queryKey: queryKeys.search(ws, query),
    queryFn: ({ signal }) => call(searchApi.search, { params: { ws }, query }, { signal }),
    enabled: !!query.q,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** The search page's results, a page at a time (the page asks for more as it scrolls, or on "Load more"). */
export function useSearch(ws: string, search: TSearchQuery) {
  const query = { ...search, limit: PAGE };
  const result = useInfiniteQuery({
    queryKey: queryKeys.search(ws, query),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      call(searchApi.search, { params: { ws }, query: { ...query, ...(pageParam ? { cursor: pageParam } : {}) } }, { signal }),
    getNextPageParam: (last) => last.nextCursor,
    enabled: !isEmptySearch(search),
    // Typed further or filtered otherwise, the list stays (dimmed) until the new one arrives.
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  return { ...result, results: result.data?.pages.flatMap((p) => p.results) };
}

/**
 * The names of the workspace's people by id, to say who owns a result (the first hundred by name,
 * which is everyone in most teams; a result whose owner is not among them says no name). Guests
 * may not list people, so they do not ask.
 */
export function usePeopleNames(ws: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.people(ws),
    queryFn: async () => new Map((await call(workspacesApi.members, { params: { ws }, query: { limit: 100 } })).items.map((m) => [m.userId, m.name])),
    enabled,
    staleTime: 5 * 60_000,
  });
}
