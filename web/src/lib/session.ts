import { useSyncExternalStore } from 'react';
import { roleAllows, type Role } from '@berth/contract';

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

/** Whether the signed-in user's role reaches `need`. */
export function useCan(need: Role): boolean {
  return roleAllows(useSession().role, need);
}
