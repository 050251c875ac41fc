import { PageHeader } from '../../components/PageHeader';
import { ImagesTable } from '../../features/images/components/ImagesTable';
import { GitCredentialSelect } from '../../features/git';

/** /resources/images */
export default function ImagesListPage() {
  return (
    <>
      <PageHeader title="Images" subtitle="Images on this host; pull new ones from a registry." />
      {/* A build from git picks its credential with the git feature's own picker. */}
      <ImagesTable credentialPicker={GitCredentialSelect} />
    </>
  );
}
