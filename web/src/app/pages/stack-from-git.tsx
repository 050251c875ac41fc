import { PageHeader } from '../../components/PageHeader';
import { FromGitForm } from '../../features/git';

/** /swarm/stacks/_/from-git: a stack whose file comes from a git repository. */
export default function StackFromGitPage() {
  return (
    <>
      <PageHeader title="New stack from git" />
      <FromGitForm kind="stack" />
    </>
  );
}
