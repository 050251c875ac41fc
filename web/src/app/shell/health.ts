import { queryOptions } from '@tanstack/react-query';
import { healthApi } from '@berth/contract';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

/** Polled by the shell so the engine banner appears and clears by itself. */
export const healthQuery = () =>
  queryOptions({
    queryKey: queryKeys.health(),
    queryFn: ({ signal }) => api(healthApi.get, { signal }),
    refetchInterval: 10_000,
    retry: false,
  });
