import { useNavigate } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { useCreateService } from '../../features/swarm/api';
import { ServiceForm } from '../../features/swarm/components/ServiceForm';
import { emptyServiceForm, toCreateBody } from '../../features/swarm/form-model';
import { notifySuccess } from '../../lib/notify';

/** /swarm/services/new */
export default function SwarmServiceNewPage() {
  const navigate = useNavigate();
  const create = useCreateService();
  return (
    <>
      <PageHeader title="Create Service" subtitle="A replicated or global swarm service." />
      <ServiceForm
        initial={emptyServiceForm}
        submitLabel="Create"
        pending={create.isPending}
        error={create.error}
        onSubmit={(f) =>
          create.mutate(toCreateBody(f), {
            onSuccess: (s) => {
              notifySuccess(`Service ${s.name} created.`);
              navigate(`/swarm/services/${encodeURIComponent(s.name)}`);
            },
          })
        }
      />
    </>
  );
}
