import { RegistriesPanel } from '../../features/registries';

/** /settings/registries */
export default function SettingsRegistriesPage() {
  return <RegistriesPanel />;
}
