import { useState } from 'react';
import { ActionIcon, Menu } from '@mantine/core';
import { IconAdjustments, IconDotsVertical, IconEdit, IconEye, IconTrash } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import type { Project } from '@berth/contract';
import { useProjectAction } from '../api/mutations';
import { ACTION_LABELS, CONTROL_ACTIONS } from '../model';
import { DeleteProjectDialog } from './DeleteProjectDialog';

/** The list's row menu: Controls (the nine actions), View, Edit, Delete (confirmed). */
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
          <Menu.Item leftSection={<IconEye size={16} />} onClick={() => navigate(path)}>
            View
          </Menu.Item>
          <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => navigate(`${path}/edit`)}>
            Edit
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)}>
            Delete
          </Menu.Item>
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
