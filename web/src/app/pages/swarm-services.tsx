import { PageHeader } from '../../components/PageHeader';
import { ServicesTable } from '../../features/swarm/components/ServicesTable';

/** /swarm/services */
export default function SwarmServicesPage() {
  return (
    <>
      <PageHeader title="Services" subtitle="Swarm services, their replicas and update state." />
      <ServicesTable />
    </>
  );
}
