import { useSyncExternalStore } from 'react';
import { roleAllows, type Role, type RouteDef } from '@berth/contract';

/** Local storage key of the signed-in username (spec: the username is kept locally). */
export const USERNAME_KEY = 'username';

export interface Session {
  /** null while signed out (or before the first auth check says otherwise). */
  username: string | null;
  authDisabled: boolean;
  /** What the user may do (the server enforces it; the web hides what the role cannot do). */
  role: Role;
  /** The start-up auth check has answered (either way). */
  checked: boolean;
}

function readStoredUsername(): string | null {
  try {
    return localStorage.getItem(USERNAME_KEY);
  } catch {
    // Storage can be blocked (privacy mode); the session then lives in memory only.
    return null;
  }
}

function writeStoredUsername(username: string | null): void {
  try {
    if (username === null) localStorage.removeItem(USERNAME_KEY);
    else localStorage.setItem(USERNAME_KEY, username);
  } catch {
    // See readStoredUsername: nothing to persist to.
    return;
  }
}

let state: Session = { username: readStoredUsername(), authDisabled: false, role: 'viewer', checked: false };
const listeners = new Set<() => void>();

function setState(next: Session): void {
  state = next;
  for (const l of listeners) l();
}

/** A tiny external store: the api client (outside React) and the shell share it. */
export const session = {
  get: (): Session => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  signedIn(username: string, authDisabled: boolean, role: Role = state.role): void {
    writeStoredUsername(username);
    setState({ username, authDisabled, role, checked: true });
  },
  /** Auth error, failed refresh or logout: forget the user (spec: stored username cleared). */
  signedOut(): void {
    writeStoredUsername(null);
    setState({ username: null, authDisabled: false, role: 'viewer', checked: true });
  },
};

export function useSession(): Session {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

/** Signed in, or nobody needs to be (auth disabled on the server). */
export function isAuthenticated(s: Session): boolean {
  return s.authDisabled || s.username !== null;
}

/** What a route asks of its caller: the lowest role its contract entry declares (`open` routes: none). */
export type RouteAccess = Pick<RouteDef, 'role'>;

/** Whether `role` may call `route`: the contract's own declaration decides, never a second table here. */
export function canCall(role: Role, route: RouteAccess): boolean {
  return route.role === undefined || roleAllows(role, route.role);
}

/** Whether the signed-in user may call a contract route (so the web shows what leads to it). */
export function useCan(route: RouteAccess): boolean {
  return canCall(useSession().role, route);
}
