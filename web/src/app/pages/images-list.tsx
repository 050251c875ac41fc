import { PageHeader } from '../../components/PageHeader';
import { ImagesTable } from '../../features/images/components/ImagesTable';

/** /resources/images */
export default function ImagesListPage() {
  return (
    <>
      <PageHeader title="Images" subtitle="Images on this host; pull new ones from a registry." />
      <ImagesTable />
    </>
  );
}
