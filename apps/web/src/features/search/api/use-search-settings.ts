import { searchApi, type TUpdateSearchSettings } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The workspace's search language; asked again every few seconds while texts are read again in a new one. */
export function useSearchSettings(ws: string) {
  return useQuery({
    queryKey: queryKeys.searchSettings(ws),
    queryFn: () => call(searchApi.settings, { params: { ws } }),
    refetchInterval: (query) => (query.state.data?.updating ? 3000 : false),
  });
}

export function useUpdateSearchSettings(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateSearchSettings) => call(searchApi.updateSettings, { params: { ws }, body }),
    onSuccess: (settings) => {
      client.setQueryData(queryKeys.searchSettings(ws), settings);
      // Results found with the old language's words are not those of the new one.
      void client.invalidateQueries({ queryKey: queryKeys.allSearch(ws) });
    },
  });
}
