import { searchApi, type TSearchTextState } from '@cabinet/contracts';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Whether a file's text can be searched yet; asked again every few seconds while it waits to be read. */
export function useSearchText(id: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.searchText(id),
    queryFn: () => call(searchApi.textState, { params: { id } }),
    enabled,
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? 3000 : false),
  });
}

/** What the details panel says of a file's text. */
export function describeSearchText(s: TSearchTextState): string {
  switch (s.state) {
    case 'ready':
      return 'Text indexed';
    case 'truncated':
      return 'Text partly indexed (its first 1 MiB, or the pages read in time)';
    case 'pending':
      return 'Waiting to be read';
    case 'failed':
      return `Text could not be read${s.error ? `: ${s.error}` : ''}`;
    case 'unsupported':
      return 'Type not searchable by content';
    case 'none':
      return 'Searchable by name only';
  }
}
