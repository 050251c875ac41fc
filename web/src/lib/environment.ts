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

/** The environment every engine-backed call goes to (the api client moves scoped paths under it). */
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
