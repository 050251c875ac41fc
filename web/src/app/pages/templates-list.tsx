import { PageHeader } from '../../components/PageHeader';
import { TemplatesTable } from '../../features/templates/components/TemplatesTable';

export default function TemplatesListPage() {
  return (
    <>
      <PageHeader title="Templates" subtitle="Catalogues of deployable apps, fetched from a URL." />
      <TemplatesTable />
    </>
  );
}
