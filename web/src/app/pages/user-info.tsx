import { ApiKeysCard } from '../../features/account/components/ApiKeysCard';

export default function UserInfoPage() {
  return <ApiKeysCard />;
}
