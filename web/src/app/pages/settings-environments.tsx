import { EnvironmentsPanel } from '../../features/environments';

export default function SettingsEnvironmentsPage() {
  return <EnvironmentsPanel />;
}
