import { ActionIcon, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader';
import { useDashboardStats, useResetDashboard } from '../../features/apps/api/live';
import { DashboardGrid } from '../../features/dashboard/components/DashboardGrid';

/** /: live CPU and memory of every running app (one stats stream, kept in the query cache). */
export default function HomePage() {
  const series = useDashboardStats();
  const reset = useResetDashboard();
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
      <DashboardGrid series={series} />
    </>
  );
}
