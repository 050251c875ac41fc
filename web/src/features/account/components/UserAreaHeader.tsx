import { Alert, Tabs } from '@mantine/core';
import { IconKey, IconLock } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router-dom';
import { PageHeader } from '../../../components/PageHeader';
import { useSession } from '../../../lib/session';

const TABS = [
  { value: '/user/info', label: 'Info', icon: IconKey },
  { value: '/user/changePassword', label: 'Change Password', icon: IconLock },
];

/** The user area's heading (the username) and its tabs. */
export function UserAreaHeader() {
  const { username, authDisabled } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title={username ?? 'User'} />
      {authDisabled && (
        <Alert color="yellow" mb="md">
          Authentication is disabled on this server, so there is no account to change and API keys are not used.
        </Alert>
      )}
      <Tabs value={pathname} onChange={(v) => v && navigate(v)} mb="md" styles={{ list: { background: 'var(--berth-tabs)' } }}>
        <Tabs.List>
          {TABS.map(({ value, label, icon: Icon }) => (
            <Tabs.Tab key={value} value={value} leftSection={<Icon size={16} />}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
    </>
  );
}
