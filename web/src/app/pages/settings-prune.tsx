import { PageHeader } from '../../components/PageHeader';
import { pruneApi } from '@berth/contract';
import { RoleGate } from '../../components/RoleGate';
import { PrunePanel } from '../../features/prune/components/PrunePanel';

/** /settings/prune */
export default function SettingsPrunePage() {
  return (
    <RoleGate route={pruneApi.prune}>
      <PageHeader title="Prune" subtitle="Free space by removing what nothing uses." />
      <PrunePanel />
    </RoleGate>
  );
}
