import { Center, Loader } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { checkAuth } from '../features/account/api';
import { isAuthenticated, useSession } from '../lib/session';
import { LoginScreen } from './LoginScreen';

/** Runs the auth check once at start; shows the login form alone until someone is signed in. */
export function AuthGate({ children }: { children: ReactNode }) {
  const s = useSession();
  const queryClient = useQueryClient();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    checkAuth().catch((err: unknown) => console.info('not signed in:', err instanceof Error ? err.message : err));
  }, []);

  const authed = isAuthenticated(s);
  useEffect(() => {
    // Whatever the last user saw must not survive into the next session.
    if (s.checked && !authed) queryClient.clear();
  }, [s.checked, authed, queryClient]);

  if (!s.checked) {
    return (
      <Center mih="100vh">
        <Loader aria-label="Checking sign-in" />
      </Center>
    );
  }
  return authed ? children : <LoginScreen />;
}
