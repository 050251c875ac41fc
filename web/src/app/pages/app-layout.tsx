import { Alert, Anchor } from '@mantine/core';
import { Link, Outlet, useParams } from 'react-router-dom';
import { useApp } from '../../features/apps/api/queries';
import { AppHeader } from '../../features/apps/components/AppHeader';
import { AppTabs } from '../../features/apps/components/AppTabs';
import { ApiError } from '../../lib/api-client';
import { errorMessage } from '../../lib/notify';

/** The app area (/apps/:appName/*): header with the actions, the tabs, then the tab's page. */
export default function AppLayout() {
  const { appName = '' } = useParams();
  const app = useApp(appName);
  const missing = app.error instanceof ApiError && app.error.status === 404;
  return (
    <>
      <AppHeader name={appName} app={app.data} />
      <AppTabs name={appName}>
        {app.error && !app.data ? (
          <Alert
            color={missing ? 'yellow' : 'red'}
            title={missing ? `There is no app named ${appName}` : 'The app could not be read'}
          >
            {errorMessage(app.error)}{' '}
            <Anchor component={Link} to="/apps">
              Back to the applications
            </Anchor>
          </Alert>
        ) : (
          <Outlet />
        )}
      </AppTabs>
    </>
  );
}
