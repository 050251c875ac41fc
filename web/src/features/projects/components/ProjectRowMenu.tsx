import { useState } from 'react';
import { ActionIcon, Menu } from '@mantine/core';
import { IconAdjustments, IconDotsVertical, IconEdit, IconEye, IconTrash } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { projectApi, type Project } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { useProjectAction } from '../api/mutations';
import { ACTION_LABELS, CONTROL_ACTIONS } from '../model';
import { DeleteProjectDialog } from './DeleteProjectDialog';

/** The list's row menu: Controls (the nine actions), View, Edit, Delete (confirmed); a role sees what it may do. */
export function ProjectRowMenu({ project }: { project: Project }) {
  const navigate = useNavigate();
  const action = useProjectAction();
  const [confirming, setConfirming] = useState(false);
  const { name } = project;
  const path = `/projects/${encodeURIComponent(name)}`;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`}>
            <IconDotsVertical size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Can route={projectApi.action}>
            <Menu.Sub position="left-start">
              <Menu.Sub.Target>
                <Menu.Sub.Item leftSection={<IconAdjustments size={16} />}>Controls</Menu.Sub.Item>
              </Menu.Sub.Target>
              <Menu.Sub.Dropdown>
                {CONTROL_ACTIONS.map((a) => (
                  <Menu.Item key={a} onClick={() => action.mutate({ name, action: a })}>
                    {ACTION_LABELS[a]}
                  </Menu.Item>
                ))}
              </Menu.Sub.Dropdown>
            </Menu.Sub>
          </Can>
          <Menu.Item leftSection={<IconEye size={16} />} onClick={() => navigate(path)}>
            View
          </Menu.Item>
          <Can route={projectApi.edit}>
            <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => navigate(`${path}/edit`)}>
              Edit
            </Menu.Item>
          </Can>
          <Can route={projectApi.action}>
            <Menu.Divider />
            <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)}>
              Delete
            </Menu.Item>
          </Can>
        </Menu.Dropdown>
      </Menu>
      <DeleteProjectDialog
        name={name}
        opened={confirming}
        loading={action.isPending && action.variables?.action === 'delete'}
        onCancel={() => setConfirming(false)}
        onConfirm={() => action.mutate({ name, action: 'delete' }, { onSettled: () => setConfirming(false) })}
      />
    </>
  );
}
