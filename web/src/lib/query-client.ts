import { MutationCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { notifyError } from './notify';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /**
       * False for a mutation whose failure is shown where it happened (a form's alert, the
       * login screen) or not at all; every other failed mutation is notified, once, here.
       */
      notifyError?: boolean;
    };
  }
}

/** The app's one QueryClient: a failed mutation becomes an error notification unless it opts out. */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    mutationCache: new MutationCache({
      onError: (err, _variables, _onMutateResult, mutation) => {
        if (mutation.meta?.notifyError !== false) notifyError(err);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        // A 4xx will not change by asking again.
        retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
      },
    },
  });
}
