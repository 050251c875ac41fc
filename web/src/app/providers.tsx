import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { makeQueryClient } from '../lib/query-client';
import { buildMantineTheme, themeCssResolver, useThemeState } from '../lib/theme';

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const themeState = useThemeState();
  const theme = useMemo(() => buildMantineTheme(themeState), [themeState]);
  const resolver = useMemo(() => themeCssResolver(themeState), [themeState]);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={resolver}
      forceColorScheme={themeState.dark ? 'dark' : 'light'}
    >
      <Notifications position="bottom-right" zIndex={1000} />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
