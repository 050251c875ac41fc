import { Stack } from '@mantine/core';
import { useParams, useSearchParams } from 'react-router-dom';
import { rangeContaining } from '../../features/apps/api/history';
import { BackToLive } from '../../features/apps/components/BackToLive';
import { AppStats } from '../../features/apps/components/LiveViews';
import { RunningOnly } from '../../features/apps/components/RunningOnly';
import { StatsCharts } from '../../features/apps/components/StatsCharts';
import { formatDate } from '../../lib/format';

/**
 * /apps/:appName/stats: live stats while the app runs. With `?at=` (an ISO time; the diagnosis
 * links here with the stop) the kept history of the shortest range holding that moment, marked on
 * the charts, also after the app stopped, until "Back to live".
 */
export default function AppStatsPage() {
  const { appName = '' } = useParams();
  const [params] = useSearchParams();
  const at = Date.parse(params.get('at') ?? '');
  if (Number.isNaN(at))
    return (
      <RunningOnly name={appName} what="stats">
        {() => <AppStats name={appName} />}
      </RunningOnly>
    );
  const range = rangeContaining(at);
  return (
    <Stack>
      <BackToLive testId="stats-at">
        {range
          ? `The dashed red line marks ${formatDate(at)}.`
          : `${formatDate(at)} is older than the kept history (7 days).`}
      </BackToLive>
      {range && <StatsCharts key={at} name={appName} live={undefined} at={at} initialRange={range} />}
    </Stack>
  );
}
