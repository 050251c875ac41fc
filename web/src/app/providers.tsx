import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { ApiError } from '../lib/api-client';
import { buildMantineTheme, themeCssResolver, useThemeState } from '../lib/theme';

function makeQueryClient(): QueryClient {
  return new QueryClient({
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

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const themeState = useThemeState();
  const theme = useMemo(() => buildMantineTheme(themeState), [themeState]);
  const resolver = useMemo(() => themeCssResolver(themeState), [themeState]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={resolver} forceColorScheme={themeState.dark ? 'dark' : 'light'}>
      <Notifications position="bottom-right" zIndex={1000} />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
