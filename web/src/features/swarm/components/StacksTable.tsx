import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { IconGitBranch } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router-dom';
import { gitApi, swarmApi, type SwarmStack } from '@berth/contract';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { AddAction } from '../../../components/AddAction';
import { DataTable, type Column } from '../../../components/DataTable';
import { RowMenu } from '../../../components/Menus';
import { Can } from '../../../components/RoleGate';
import { notifySuccess } from '../../../lib/notify';
import { useRemoveStack, useStacks } from '../api';

const columns: Column<SwarmStack>[] = [
  { key: 'name', header: 'Name', sortable: true },
  { key: 'services', header: 'Services', sortable: true },
  { key: 'tasks', header: 'Tasks', render: (s) => `${s.running} / ${s.desired}` },
  { key: 'hasFile', header: 'File', render: (s) => (s.hasFile ? 'In Berth' : 'Deployed elsewhere') },
];

/** Stacks (services grouped by their stack label, plus stored files), with deploy and remove. */
export function StacksTable() {
  const navigate = useNavigate();
  const stacks = useStacks();
  const remove = useRemoveStack();
  const [removing, setRemoving] = useState<SwarmStack | null>(null);
  const open = (s: SwarmStack) => navigate(`/swarm/stacks/${encodeURIComponent(s.name)}`);
  return (
    <>
      {stacks.error && <Text c="red">{stacks.error.message}</Text>}
      <DataTable
        label="Stacks"
        data={stacks.data}
        columns={columns}
        rowKey={(s) => s.name}
        searchPlaceholder="Search stacks"
        loading={stacks.isLoading}
        onRowClick={open}
        rowMenu={(s) => (
          <RowMenu
            name={s.name}
            onView={() => open(s)}
            onDelete={() => setRemoving(s)}
            deleteRoute={swarmApi.removeStack}
          />
        )}
        emptyText="No stacks."
        toolbar={
          <Group gap="xs">
            <AddAction label="Deploy Stack" route={swarmApi.deployStack} to="/swarm/stacks/new" />
            <Can route={gitApi.stackFromGit}>
              <Button
                component={Link}
                to="/swarm/stacks/_/from-git"
                variant="default"
                leftSection={<IconGitBranch size={16} />}
              >
                From git
              </Button>
            </Can>
          </Group>
        }
      />
      <ConfirmDialog
        opened={removing !== null}
        title="Remove the stack?"
        confirmLabel="Remove"
        loading={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.name, {
            onSuccess: (r) => notifySuccess(`Stack ${r.removed} removed.`),
            onSettled: () => setRemoving(null),
          })
        }
        onCancel={() => setRemoving(null)}
      >
        {`The stack ${removing?.name ?? ''} (its services, networks, configs and secrets) will be removed.`}
      </ConfirmDialog>
    </>
  );
}
