import type { ReactNode } from 'react';
import { Alert, Fieldset, Text } from '@mantine/core';
import { seesEnvValues, type Role } from '@berth/contract';
import { canCall, useCan, useSession, type RouteAccess } from '../lib/session';

const article = (role: Role) => (role === 'viewer' ? 'a' : 'an');

/**
 * Shows its children only to a role that may call `route` (the contract's declared role), else
 * nothing: buttons and menu items that lead to a refused call are hidden, not left to fail.
 */
export function Can({ route, children }: { route: RouteAccess; children: ReactNode }) {
  return useCan(route) ? <>{children}</> : null;
}

/** Shows the page only to a role that may call `route`; everyone else reads why not. */
export function RoleGate({ route, children }: { route: RouteAccess; children: ReactNode }) {
  const { role } = useSession();
  const need = route.role;
  if (need === undefined || canCall(role, route)) return <>{children}</>;
  return (
    <Alert color="yellow" title="Not allowed" role="alert">
      This page needs the {need} role and your account is {article(role)} {role}. Ask an admin if you need it.
    </Alert>
  );
}

/** A form's fields, read-only (a disabled fieldset) for a role that may not call `route`, the form's save. */
export function EditableBy({ route, children }: { route: RouteAccess; children: ReactNode }) {
  return (
    <Fieldset variant="unstyled" disabled={!useCan(route)} p={0} m={0}>
      {children}
    </Fieldset>
  );
}

/** Beside environment values: for a role the server masks them for (a viewer), says why they read ********. */
export function EnvValuesNote() {
  const { role } = useSession();
  if (seesEnvValues(role)) return null;
  return (
    <Text size="xs" c="dimmed">
      Values hidden for your role ({role}); an operator or admin sees them.
    </Text>
  );
}
