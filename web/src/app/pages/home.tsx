import { useMemo } from 'react';
import { ActionIcon, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader';
import { useAppsLiveRefresh, useResetDashboard } from '../../features/apps/api/live';
import { useApps } from '../../features/apps/api/queries';
import { isRunning } from '../../features/apps/model';
import { DashboardGrid } from '../../features/dashboard/components/DashboardGrid';
import { HostHeader } from '../../features/dashboard/components/HostHeader';
import { useHostOverview } from '../../features/dashboard/api/host';
import { AllEnvironments } from '../../features/environments';

/**
 * /: live CPU and memory of every running app (one stats stream, kept in the query cache). The
 * page itself does not read the samples: each card reads its own app's (see DashboardGrid), so a
 * tick re-renders only the cards whose numbers changed.
 */
export default function HomePage() {
  const host = useHostOverview();
  const reset = useResetDashboard();
  // The list says which apps run before their first sample: until it answers the page is loading, not empty.
  const apps = useApps();
  // Also opens the dashboard stream the cards read.
  useAppsLiveRefresh(apps.data);
  const running = useMemo(() => apps.data?.filter(isRunning).map((a) => a.name), [apps.data]);
  const health = useMemo(() => Object.fromEntries((apps.data ?? []).map((a) => [a.name, a.health])), [apps.data]);
  return (
    <>
      <PageHeader
        title="Dashboard"
        actions={
          <Tooltip label="Refresh">
            <ActionIcon variant="default" size="lg" aria-label="Refresh" onClick={reset}>
              <IconRefresh size={18} />
            </ActionIcon>
          </Tooltip>
        }
      />
      <HostHeader host={host} />
      <DashboardGrid running={apps.isError ? [] : running} error={apps.data ? undefined : apps.error} health={health} />
      <AllEnvironments />
    </>
  );
}
