import { PageHeader } from '../../components/PageHeader';
import { VolumesTable } from '../../features/volumes/components/VolumesTable';

/** /resources/volumes */
export default function VolumesListPage() {
  return (
    <>
      <PageHeader title="Volumes" subtitle="Named and anonymous volumes on this host." />
      <VolumesTable />
    </>
  );
}
