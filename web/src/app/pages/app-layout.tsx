import { Outlet } from 'react-router-dom';

/** The app area (/apps/:appName/*); the apps feature adds its header and tabs here. */
export default function AppLayout() {
  return <Outlet />;
}
