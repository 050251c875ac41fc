import { useParams } from 'react-router-dom';
import { policyApi } from '@berth/contract';
import { RoleGate } from '../../components/RoleGate';
import { PolicyPanel } from '../../features/environments';

/** /settings/environments/:env/policy (operators read it, admins change it) */
export default function SettingsEnvironmentPolicyPage() {
  const { env = 'local' } = useParams();
  return (
    <RoleGate route={policyApi.get}>
      <PolicyPanel env={env} />
    </RoleGate>
  );
}
