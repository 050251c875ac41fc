import { PageHeader } from '../../components/PageHeader';
import { NetworksTable } from '../../features/networks/components/NetworksTable';

/** /resources/networks */
export default function NetworksListPage() {
  return (
    <>
      <PageHeader title="Networks" subtitle="Engine networks, built-in and user-defined." />
      <NetworksTable />
    </>
  );
}
