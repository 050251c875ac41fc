import { PageHeader } from '../../components/PageHeader';
import { CreateNetworkForm } from '../../features/networks/components/CreateNetworkForm';

/** /resources/networks/new */
export default function NewNetworkPage() {
  return (
    <>
      <PageHeader title="Create Network" subtitle="A bridge, macvlan or ipvlan network with optional addressing." />
      <CreateNetworkForm />
    </>
  );
}
