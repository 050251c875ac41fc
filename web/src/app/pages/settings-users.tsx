import { usersApi } from '@berth/contract';
import { RoleGate } from '../../components/RoleGate';
import { UsersCard } from '../../features/users';

/** /settings/users (admins) */
export default function SettingsUsersPage() {
  return (
    <RoleGate route={usersApi.list}>
      <UsersCard />
    </RoleGate>
  );
}
