import { useState } from 'react';
import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconDownload, IconEdit, IconTrash } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { PageHeader } from '../../../components/PageHeader';
import { useProjectAction, useProjectBusyTexts, useProjectSupportBundle } from '../api/mutations';
import { ACTION_LABELS, CONTROL_ACTIONS } from '../model';
import { DeleteProjectDialog } from './DeleteProjectDialog';

/** The project page's header: name, running action, the whole-project actions, Edit, Delete, support bundle. */
export function ProjectHeader({ name }: { name: string }) {
  const navigate = useNavigate();
  const action = useProjectAction();
  const bundle = useProjectSupportBundle();
  const busy = useProjectBusyTexts(name);
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <PageHeader
        title={name}
        subtitle={busy[0]}
        actions={
          <>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="light" rightSection={<IconChevronDown size={16} />} loading={busy.length > 0}>
                  Actions
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {CONTROL_ACTIONS.map((a) => (
                  <Menu.Item key={a} onClick={() => action.mutate({ name, action: a })}>
                    {ACTION_LABELS[a]}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
            <Button variant="default" leftSection={<IconEdit size={16} />} onClick={() => navigate(`/projects/${encodeURIComponent(name)}/edit`)}>
              Edit
            </Button>
            <Button variant="default" leftSection={<IconDownload size={16} />} loading={bundle.isPending} onClick={() => bundle.mutate(name)}>
              Download Support Bundle
            </Button>
            <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)}>
              Delete
            </Button>
          </>
        }
      />
      <DeleteProjectDialog
        name={name}
        opened={confirming}
        loading={action.isPending && action.variables?.action === 'delete'}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          action.mutate(
            { name, action: 'delete' },
            {
              onSuccess: () => navigate('/projects'),
              onSettled: () => setConfirming(false),
            },
          )
        }
      />
    </>
  );
}
