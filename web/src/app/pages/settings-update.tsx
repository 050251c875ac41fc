import { RoleGate } from '../../components/RoleGate';
import { UpdatePanel } from '../../features/settings/components/UpdatePanel';

/** /settings/update */
export default function SettingsUpdatePage() {
  return (
    <RoleGate need="admin">
      <UpdatePanel />
    </RoleGate>
  );
}
