import { GitCredentialsCard } from '../../features/git';

/** /settings/git: the credentials git-backed projects fetch with (admins). */
export default function SettingsGitPage() {
  return <GitCredentialsCard />;
}
