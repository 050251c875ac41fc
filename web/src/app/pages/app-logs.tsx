import { useParams } from 'react-router-dom';
import { AppLogs } from '../../features/apps/components/LiveViews';
import { RunningOnly } from '../../features/apps/components/RunningOnly';

/** /apps/:appName/logs */
export default function AppLogsPage() {
  const { appName = '' } = useParams();
  return (
    <RunningOnly name={appName} what="logs">
      {() => <AppLogs name={appName} />}
    </RunningOnly>
  );
}
