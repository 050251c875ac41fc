import { useParams } from 'react-router-dom';
import { AppStats } from '../../features/apps/components/LiveViews';
import { RunningOnly } from '../../features/apps/components/RunningOnly';

/** /apps/:appName/stats */
export default function AppStatsPage() {
  const { appName = '' } = useParams();
  return (
    <RunningOnly name={appName} what="stats">
      {() => <AppStats name={appName} />}
    </RunningOnly>
  );
}
