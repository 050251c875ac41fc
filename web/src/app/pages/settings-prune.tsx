import { PageHeader } from '../../components/PageHeader';
import { RoleGate } from '../../components/RoleGate';
import { PrunePanel } from '../../features/prune/components/PrunePanel';

/** /settings/prune */
export default function SettingsPrunePage() {
  return (
    <RoleGate need="admin">
      <PageHeader title="Prune" subtitle="Free space by removing what nothing uses." />
      <PrunePanel />
    </RoleGate>
  );
}
