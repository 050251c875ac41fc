import { useSyncExternalStore } from 'react';
import { LOCAL_ENVIRONMENT } from '@berth/contract';

/** Local storage key of the environment the console acts on. */
export const ENVIRONMENT_KEY = 'environment';

function readStored(): string {
  try {
    return localStorage.getItem(ENVIRONMENT_KEY) ?? LOCAL_ENVIRONMENT;
  } catch {
    // Storage can be blocked (privacy mode); the choice then lives in memory only.
    return LOCAL_ENVIRONMENT;
  }
}

let current = readStored();
const listeners = new Set<() => void>();

/** The selected environment: pages pass it to every call of an environment route (`api(def, { env })`). */
export function currentEnvironment(): string {
  return current;
}

export function setEnvironment(id: string): void {
  if (id === current) return;
  current = id;
  try {
    localStorage.setItem(ENVIRONMENT_KEY, id);
  } catch {
    // See readStored: nothing to persist to.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useEnvironment(): string {
  return useSyncExternalStore(subscribe, currentEnvironment);
}

/** Hash routes of an environment other than `local` start with this: `#/e/{id}/apps`. */
const HASH_PREFIX = /^#?\/e\/([a-z0-9][a-z0-9-]{0,62})(?=\/|$)/;

/** The environment a location hash names: `#/e/{id}/…` → id; the spec's own routes mean `local`. */
export function environmentOfHash(hash: string): string {
  return HASH_PREFIX.exec(hash)?.[1] ?? LOCAL_ENVIRONMENT;
}

/** The router's basename for an environment (undefined for `local`, whose routes are the spec's). */
export const environmentBasename = (id: string): string | undefined =>
  id === LOCAL_ENVIRONMENT ? undefined : `/e/${id}`;

/** The same page in another environment: `#/e/a/apps/x` → `#/e/b/apps/x` (or `#/apps/x` for `local`). */
export function hashInEnvironment(hash: string, id: string): string {
  const page = hash.replace(/^#/, '').replace(HASH_PREFIX, '') || '/';
  const rest = page.startsWith('/') ? page : `/${page}`;
  return `#${environmentBasename(id) ?? ''}${rest}`;
}

/** The environment chosen last time (local storage), for a start at the bare `#/`. */
export const rememberedEnvironment = readStored;
