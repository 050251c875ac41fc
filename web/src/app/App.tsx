import { useState } from 'react';
import { createHashRouter, RouterProvider } from 'react-router-dom';
import { AuthGate } from './AuthGate';
import { Providers } from './providers';
import { routes } from './routes';

export function App() {
  // Made on first render, not at import, so nothing listens before the app mounts.
  const [router] = useState(() => createHashRouter(routes));
  return (
    <Providers>
      <AuthGate>
        <RouterProvider router={router} />
      </AuthGate>
    </Providers>
  );
}
