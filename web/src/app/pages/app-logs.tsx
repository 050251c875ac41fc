import { Stack } from '@mantine/core';
import { useParams, useSearchParams } from 'react-router-dom';
import { BackToLive } from '../../features/apps/components/BackToLive';
import { AppLogs } from '../../features/apps/components/LiveViews';
import { RunningOnly } from '../../features/apps/components/RunningOnly';
import { EarlierContainers } from '../../features/log-archive';
import { formatDate } from '../../lib/format';

const when = (v: string) => (Number.isNaN(Date.parse(v)) ? v : formatDate(v));

/**
 * /apps/:appName/logs: the live log while the app runs, and the kept lines of its earlier
 * containers. With `?since=&until=` (the diagnosis links here) it shows that window instead, also
 * after the app stopped, until "Back to live".
 */
export default function AppLogsPage() {
  const { appName = '' } = useParams();
  const [params] = useSearchParams();
  const since = params.get('since') ?? '';
  const until = params.get('until') ?? '';
  return (
    <Stack>
      {since || until ? (
        <>
          <BackToLive testId="log-window">
            {`Showing the log ${since ? `from ${when(since)} ` : ''}${until ? `until ${when(until)}` : 'on'}.`}
          </BackToLive>
          <AppLogs key={`${since}|${until}`} name={appName} initial={{ range: 'custom', since, until, tail: 'all' }} />
        </>
      ) : (
        <RunningOnly name={appName} what="logs">
          {() => <AppLogs name={appName} />}
        </RunningOnly>
      )}
      <EarlierContainers name={appName} />
    </Stack>
  );
}
