import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';
import type { Role } from '@berth/contract';
import { useCan, useSession } from '../lib/session';

const article = (role: Role) => (role === 'viewer' ? 'a' : 'an');

/** Shows the page only to a role that may use it; everyone else reads why not. */
export function RoleGate({ need, children }: { need: Role; children: ReactNode }) {
  const { role } = useSession();
  if (useCan(need)) return <>{children}</>;
  return (
    <Alert color="yellow" title="Not allowed" role="alert">
      This page needs the {need} role and your account is {article(role)} {role}. Ask an admin if you need it.
    </Alert>
  );
}
