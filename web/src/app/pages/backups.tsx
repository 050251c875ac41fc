import { PageHeader } from '../../components/PageHeader';
import { BackupsPanel } from '../../features/backups';

/** /backups: jobs, archives per target, runs and destinations (admins). */
export default function BackupsPage() {
  return (
    <>
      <PageHeader
        title="Backups"
        subtitle="Volumes on a schedule, with restore drills that prove each archive restores"
      />
      <BackupsPanel />
    </>
  );
}
