import { useEffect, useMemo, useState } from 'react';
import { createHashRouter, RouterProvider } from 'react-router-dom';
import { LOCAL_ENVIRONMENT } from '@berth/contract';
import {
  environmentBasename,
  environmentOfHash,
  hashInEnvironment,
  rememberedEnvironment,
  setEnvironment,
  useEnvironment,
} from '../lib/environment';
import { routes } from './routes';

/** The environment the address names; a start at the bare `#/` goes to the one chosen last time. */
function startEnvironment(): string {
  const { hash } = window.location;
  const remembered = rememberedEnvironment();
  if ((hash === '' || hash === '#' || hash === '#/') && remembered !== LOCAL_ENVIRONMENT)
    window.location.replace(hashInEnvironment(hash, remembered));
  return environmentOfHash(window.location.hash);
}

/**
 * The signed-in app: the router, the shell and the route table. Its own chunk, loaded once
 * someone is signed in, so the login form does not wait for it. Routes carry the environment
 * (`#/e/{id}/…`): the router runs under that basename, so every link of every page stays in
 * the environment; the spec's own routes are `local`. Another environment in the address
 * selects it; the cache stays (every key of an environment route starts with its environment id,
 * lib/query-keys.ts, so nothing of one engine shows under another's name).
 */
export default function Router() {
  // Once, before the first route renders: the address decides the environment.
  useState(() => setEnvironment(startEnvironment()));
  const env = useEnvironment();
  useEffect(() => {
    const follow = () => {
      const named = environmentOfHash(window.location.hash);
      if (named === env) return;
      setEnvironment(named);
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [env]);
  // Made on first render and per environment, not at import, so nothing listens before the app mounts.
  const router = useMemo(() => createHashRouter(routes, { basename: environmentBasename(env) }), [env]);
  return <RouterProvider router={router} />;
}
