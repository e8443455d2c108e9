import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // call() already retried what is worth retrying.
      retry: false,
      refetchOnWindowFocus: (query) => !(query.state.error instanceof ApiError && query.state.error.status === 401),
    },
  },
});
