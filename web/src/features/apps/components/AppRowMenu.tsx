import { useState } from 'react';
import { ActionIcon, Menu } from '@mantine/core';
import { IconCloudDownload, IconDotsVertical, IconEdit, IconEye, IconTrash } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { appsApi, deployApi, type App } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { useAppAction, useUpdateApp } from '../api/mutations';
import { isBerthImage } from '../model';
import { actionsFor } from './actions';
import { RemoveAppDialog } from './RemoveAppDialog';

/** The list's row menu (for roles that may run app actions): View, Edit, Update (not for Berth's own image), Start, Stop, Restart, Kill, Remove. */
export function AppRowMenu({ app }: { app: App }) {
  const navigate = useNavigate();
  const action = useAppAction();
  const update = useUpdateApp();
  const [confirming, setConfirming] = useState(false);
  const name = app.name;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`}>
            <IconDotsVertical size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconEye size={16} />}
            onClick={() => navigate(`/apps/${encodeURIComponent(name)}/info`)}
          >
            View
          </Menu.Item>
          <Can route={deployApi.deploy}>
            <Menu.Item
              leftSection={<IconEdit size={16} />}
              onClick={() => navigate(`/apps/edit/${encodeURIComponent(name)}`)}
            >
              Edit
            </Menu.Item>
          </Can>
          {!isBerthImage(app) && (
            <Can route={appsApi.update}>
              <Menu.Item leftSection={<IconCloudDownload size={16} />} onClick={() => update.mutate(name)}>
                Update
              </Menu.Item>
            </Can>
          )}
          <Menu.Divider />
          {actionsFor(app.State.Status).map(({ action: a, label, icon: Icon, applies }) => (
            <Menu.Item
              key={a}
              leftSection={<Icon size={16} />}
              disabled={!applies(app.State.Status)}
              onClick={() => action.mutate({ name, action: a })}
            >
              {label}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)}>
            Remove
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <RemoveAppDialog
        name={name}
        opened={confirming}
        loading={action.isPending && action.variables?.action === 'remove'}
        onCancel={() => setConfirming(false)}
        onConfirm={() => action.mutate({ name, action: 'remove' }, { onSettled: () => setConfirming(false) })}
      />
    </>
  );
}
