import { useParams } from 'react-router-dom';
import { ProcessesTable } from '../../features/apps/components/ProcessesTable';
import { RunningOnly } from '../../features/apps/components/RunningOnly';

/** /apps/:appName/top */
export default function AppProcessesPage() {
  const { appName = '' } = useParams();
  return (
    <RunningOnly name={appName} what="processes">
      {() => <ProcessesTable name={appName} />}
    </RunningOnly>
  );
}
