import type { ReactNode } from 'react';
import { Badge } from '@mantine/core';
import {
  IconBell,
  IconBox,
  IconBrush,
  IconCalendarRepeat,
  IconCloudDownload,
  IconGitBranch,
  IconInfoCircle,
  IconListCheck,
  IconServer2,
  IconTrash,
  IconUsers,
  IconVariable,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { auditApi, environmentApi, gitApi, pruneApi, registryApi, settingsApi, usersApi } from '@berth/contract';
import { PageHeader } from '../../../components/PageHeader';
import { RouteTabs, type RouteTab } from '../../../components/RouteTabs';
import { serverInfoQuery } from '../api';

const TABS: RouteTab[] = [
  { to: '/settings/info', label: 'Info', icon: IconInfoCircle },
  { to: '/settings/theme', label: 'Theme', icon: IconBrush },
  { to: '/settings/templateVariables', label: 'Template Variables', icon: IconVariable },
  { to: '/settings/environments', label: 'Environments', icon: IconServer2, route: environmentApi.create },
  { to: '/settings/registries', label: 'Registries', icon: IconBox, route: registryApi.list },
  { to: '/settings/prune', label: 'Prune', icon: IconTrash, route: pruneApi.prune },
  { to: '/settings/update', label: 'Update', icon: IconCloudDownload, route: settingsApi.update },
  { to: '/settings/auto-update', label: 'Auto-update', icon: IconCalendarRepeat },
  { to: '/settings/notifications', label: 'Notifications', icon: IconBell },
  { to: '/settings/audit', label: 'Audit log', icon: IconListCheck, route: auditApi.list },
  { to: '/settings/users', label: 'Users', icon: IconUsers, route: usersApi.list },
  { to: '/settings/git', label: 'Git', icon: IconGitBranch, route: gitApi.credentials },
];

/** Settings heading with Berth's real version, then Back and the settings tabs around the tab's page. */
export function SettingsHeader({ children }: { children?: ReactNode }) {
  const info = useQuery(serverInfoQuery());
  return (
    <>
      <PageHeader
        title="Settings"
        actions={
          info.data && (
            <Badge variant="light" size="lg" tt="none" aria-label="Berth version">
              v{info.data.version}
            </Badge>
          )
        }
      />
      <RouteTabs tabs={TABS} back="/">
        {children}
      </RouteTabs>
    </>
  );
}
