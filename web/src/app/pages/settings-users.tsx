import { RoleGate } from '../../components/RoleGate';
import { UsersCard } from '../../features/users';

/** /settings/users (admins) */
export default function SettingsUsersPage() {
  return (
    <RoleGate need="admin">
      <UsersCard />
    </RoleGate>
  );
}
