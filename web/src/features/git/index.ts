export { FromGitForm } from './components/FromGitForm';
export { GitCredentialsCard } from './components/GitCredentialsCard';
export { GitStatusCard } from './components/GitStatusCard';
export { GitCredentialSelect } from './components/GitFields';
