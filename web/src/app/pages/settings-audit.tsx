import { PageHeader } from '../../components/PageHeader';
import { AuditLog } from '../../features/audit';

/** /settings/audit */
export default function SettingsAuditPage() {
  return (
    <>
      <PageHeader
        title="Audit log"
        subtitle="Every change made through Berth: who, from where, what, and how it ended."
      />
      <AuditLog />
    </>
  );
}
