import { PageHeader } from '../../components/PageHeader';
import { FromGitForm } from '../../features/git';

/** /projects/_/from-git: a project whose files come from a git repository. */
export default function ProjectFromGitPage() {
  return (
    <>
      <PageHeader title="New project from git" />
      <FromGitForm />
    </>
  );
}
