import { useState } from 'react';
import { createHashRouter, RouterProvider } from 'react-router-dom';
import { routes } from './routes';

/**
 * The signed-in app: the router, the shell and the route table. Its own chunk, loaded once
 * someone is signed in, so the login form does not wait for it.
 */
export default function Router() {
  // Made on first render, not at import, so nothing listens before the app mounts.
  const [router] = useState(() => createHashRouter(routes));
  return <RouterProvider router={router} />;
}
