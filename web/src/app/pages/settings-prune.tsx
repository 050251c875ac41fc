import { PageHeader } from '../../components/PageHeader';
import { PrunePanel } from '../../features/prune/components/PrunePanel';

/** /settings/prune */
export default function SettingsPrunePage() {
  return (
    <>
      <PageHeader title="Prune" subtitle="Free space by removing what nothing uses." />
      <PrunePanel />
    </>
  );
}
