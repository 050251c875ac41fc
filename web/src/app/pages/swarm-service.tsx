import { useParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { ServiceDetails } from '../../features/swarm/components/ServiceDetails';

/** /swarm/services/:serviceId */
export default function SwarmServicePage() {
  const { serviceId = '' } = useParams();
  return (
    <>
      <PageHeader title={serviceId} subtitle="Swarm service" />
      <ServiceDetails id={serviceId} />
    </>
  );
}
