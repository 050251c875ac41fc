import { Stack } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { AppLogs } from '../../features/apps/components/LiveViews';
import { RunningOnly } from '../../features/apps/components/RunningOnly';
import { EarlierContainers } from '../../features/log-archive';

/** /apps/:appName/logs: the live log while the app runs, and the kept lines of its earlier containers. */
export default function AppLogsPage() {
  const { appName = '' } = useParams();
  return (
    <Stack>
      <RunningOnly name={appName} what="logs">
        {() => <AppLogs name={appName} />}
      </RunningOnly>
      <EarlierContainers name={appName} />
    </Stack>
  );
}
