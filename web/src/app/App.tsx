import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { AuthGate } from './AuthGate';
import { Providers } from './providers';

const Router = lazy(() => import('./router'));

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
