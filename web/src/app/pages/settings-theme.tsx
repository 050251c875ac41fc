import { ThemeEditor } from '../../features/settings/components/ThemeEditor';

/** /settings/theme */
export default function SettingsThemePage() {
  return <ThemeEditor />;
}
