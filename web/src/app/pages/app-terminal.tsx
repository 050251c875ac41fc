import { useParams } from 'react-router-dom';
import { RunningOnly } from '../../features/apps/components/RunningOnly';
import { TerminalPanel } from '../../features/terminal';

/** /apps/:appName/terminal */
export default function AppTerminalPage() {
  const { appName = '' } = useParams();
  return (
    <RunningOnly name={appName} what="terminal">
      {() => <TerminalPanel target={{ app: appName }} />}
    </RunningOnly>
  );
}
