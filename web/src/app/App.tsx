import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { importOrReload } from '../lib/chunk-reload';
import { AuthGate } from './AuthGate';
import { Providers } from './providers';

const Router = lazy(importOrReload(() => import('./router')));

export function App() {
  return (
    <Providers>
      <AuthGate>
        <Suspense
          fallback={
            <Center mih="100vh">
              <Loader aria-label="Loading" />
            </Center>
          }
        >
          <Router />
        </Suspense>
      </AuthGate>
    </Providers>
  );
}
