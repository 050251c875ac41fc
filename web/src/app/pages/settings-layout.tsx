import { Outlet } from 'react-router-dom';
import { SettingsHeader } from '../../features/settings/components/SettingsHeader';

/** The settings area (/settings/*): heading with the version, the tabs, then the tab's page. */
export default function SettingsLayout() {
  return (
    <>
      <SettingsHeader>
        <Outlet />
      </SettingsHeader>
    </>
  );
}
