import { UpdatePanel } from '../../features/settings/components/UpdatePanel';

/** /settings/update */
export default function SettingsUpdatePage() {
  return <UpdatePanel />;
}
