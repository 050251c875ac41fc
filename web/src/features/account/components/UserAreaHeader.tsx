import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';
import { IconKey, IconLock, IconShieldLock } from '@tabler/icons-react';
import { PageHeader } from '../../../components/PageHeader';
import { RouteTabs, type RouteTab } from '../../../components/RouteTabs';
import { useSession } from '../../../lib/session';

const TABS: RouteTab[] = [
  // The route keeps the spec's name (User Info); the tab says what is on it.
  { to: '/user/info', label: 'API keys', icon: IconKey },
  { to: '/user/changePassword', label: 'Change Password', icon: IconLock },
  { to: '/user/security', label: 'Security', icon: IconShieldLock },
];

/** The user area's heading (the username) and its tabs around the tab's page. */
export function UserAreaHeader({ children }: { children?: ReactNode }) {
  const { username, authDisabled } = useSession();
  return (
    <>
      <PageHeader title={username ?? 'User'} />
      {authDisabled && (
        <Alert color="yellow" mb="md">
          Authentication is disabled on this server, so there is no account to change and API keys are not used.
        </Alert>
      )}
      <RouteTabs tabs={TABS}>{children}</RouteTabs>
    </>
  );
}
