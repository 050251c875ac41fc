import { useState } from 'react';
import { Button, Group, Loader, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconEdit, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { appsApi, deployApi, type App } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { PageHeader } from '../../../components/PageHeader';
import { useAppAction, useAppBusyTexts, useSupportBundle } from '../api/mutations';
import { actionsFor } from './actions';
import { AppChangeActions } from './AppChangeActions';
import { HealthBadge } from '../../../components/HealthBadge';
import { AppStatusBadge } from './AppStatusBadge';
import { RemoveAppDialog } from './RemoveAppDialog';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';

/** The app page's header: name and status, Download support bundle, Edit, Refresh and the actions. */
export function AppHeader({ name, app }: { name: string; app: App | undefined }) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const action = useAppAction();
  const support = useSupportBundle();
  const busy = useAppBusyTexts(name);
  const [confirming, setConfirming] = useState(false);
  const status = app?.State.Status;

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.apps.detail(env, name), exact: true });
    void queryClient.invalidateQueries({ queryKey: queryKeys.apps.processes(env, name), exact: true });
  };
  const remove = () =>
    action.mutate(
      { name, action: 'remove' },
      {
        onSuccess: () => navigate('/apps'),
        onSettled: () => setConfirming(false),
      },
    );

  return (
    <>
      <PageHeader
        title={
          <Group gap="sm">
            <span>{name}</span>
            {app && <AppStatusBadge state={app.State} />}
            {app && <HealthBadge health={app.health} />}
          </Group>
        }
        subtitle={
          busy.length > 0 ? (
            <Group gap={6} component="span">
              <Loader size={12} />
              <Text span size="sm" role="status">
                {busy.join(' ')}
              </Text>
            </Group>
          ) : undefined
        }
        actions={
          <>
            <Can route={appsApi.support}>
              <Tooltip
                label="A zip of this app's log (its last 10 MiB) and its configuration, environment values redacted, to attach to a bug report"
                multiline
                w={300}
              >
                <Button
                  variant="default"
                  size="xs"
                  leftSection={<IconDownload size={16} />}
                  onClick={() => support.mutate(name)}
                  loading={support.isPending}
                >
                  Download support bundle
                </Button>
              </Tooltip>
            </Can>
            <Can route={deployApi.deploy}>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconEdit size={16} />}
                component={Link}
                to={`/apps/edit/${encodeURIComponent(name)}`}
              >
                Edit
              </Button>
            </Can>
            <AppChangeActions app={app} />
            <Button variant="default" size="xs" leftSection={<IconRefresh size={16} />} onClick={refresh}>
              Refresh
            </Button>
            <Can route={appsApi.action}>
              {actionsFor(status).map(({ action: a, label, icon: Icon, color, applies }) => (
                <Button
                  key={a}
                  variant="light"
                  color={color}
                  size="xs"
                  leftSection={<Icon size={16} />}
                  disabled={!status || !applies(status) || busy.length > 0}
                  onClick={() => action.mutate({ name, action: a })}
                >
                  {label}
                </Button>
              ))}
              <Button
                variant="light"
                color="red"
                size="xs"
                leftSection={<IconTrash size={16} />}
                disabled={!app}
                onClick={() => setConfirming(true)}
              >
                Remove
              </Button>
            </Can>
          </>
        }
      />
      <RemoveAppDialog
        name={name}
        opened={confirming}
        loading={action.isPending && action.variables?.action === 'remove'}
        onCancel={() => setConfirming(false)}
        onConfirm={remove}
      />
    </>
  );
}
