import { Outlet } from 'react-router-dom';

/** The settings area (/settings/*); the settings feature adds its tabs and version here. */
export default function SettingsLayout() {
  return <Outlet />;
}
