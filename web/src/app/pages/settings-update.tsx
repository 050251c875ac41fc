import { settingsApi } from '@berth/contract';
import { RoleGate } from '../../components/RoleGate';
import { UpdatePanel } from '../../features/settings/components/UpdatePanel';

/** /settings/update */
export default function SettingsUpdatePage() {
  return (
    <RoleGate route={settingsApi.update}>
      <UpdatePanel />
    </RoleGate>
  );
}
