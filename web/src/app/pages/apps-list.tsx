import { Alert } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useAppsLiveRefresh } from '../../features/apps/api/live';
import { useAppBusyTexts, useCheckUpdates } from '../../features/apps/api/mutations';
import { useApps } from '../../features/apps/api/queries';
import { AppsTable } from '../../features/apps/components/AppsTable';
import { errorMessage } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { useEnvironment } from '../../lib/environment';

/** /apps: every container, kept live by the stats stream (see useAppsLiveRefresh). */
export default function AppsListPage() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  const apps = useApps();
  useAppsLiveRefresh(apps.data);
  const busy = useAppBusyTexts();
  const check = useCheckUpdates();

  return (
    <>
      {apps.error && (
        <Alert color="red" mb="sm" title="The applications could not be read">
          {errorMessage(apps.error)}
        </Alert>
      )}
      <AppsTable
        apps={apps.data}
        error={apps.data ? undefined : apps.error}
        loading={apps.isLoading}
        progress={check.progress ?? undefined}
        busy={busy}
        checking={check.isPending}
        onCheckUpdates={() => check.mutate((apps.data ?? []).map((a) => a.name))}
        onRefresh={() => void queryClient.invalidateQueries({ queryKey: queryKeys.apps.list(env), exact: true })}
      />
    </>
  );
}
