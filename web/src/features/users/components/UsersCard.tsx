import { ActionIcon, Badge, Button, Card, Group, Menu, Select, Text, Title } from '@mantine/core';
import { IconDots, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Role, User } from '@berth/contract';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteUser, useEndUserSessions, useUpdateUser, usersQuery } from '../api';
import { AddUserDialog, ResetPasswordDialog, ROLE_OPTIONS } from './UserDialogs';

/** Settings > Users: every account, its role and state, with add, reset password, disable, end sessions and delete. */
export function UsersCard() {
  const users = useQuery(usersQuery());
  const update = useUpdateUser();
  const endSessions = useEndUserSessions();
  const remove = useDeleteUser();
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);

  const columns: Column<User>[] = [
    { key: 'email', header: 'Email', sortable: true },
    {
      key: 'role',
      header: 'Role',
      render: (u) => (
        <Select
          aria-label={`Role of ${u.email}`}
          data={ROLE_OPTIONS}
          value={u.role}
          allowDeselect={false}
          w={130}
          onChange={(v) =>
            v &&
            v !== u.role &&
            update.mutate({ id: u.id, role: v as Role }, { onSuccess: () => notifySuccess(`${u.email} is now ${v}.`) })
          }
        />
      ),
    },
    {
      key: 'disabled',
      header: 'State',
      render: (u) => (
        <Group gap={4}>
          <Badge color={u.disabled ? 'gray' : 'green'} variant="light">
            {u.disabled ? 'Disabled' : 'Active'}
          </Badge>
          {u.totp_enabled && <Badge variant="light">TOTP</Badge>}
        </Group>
      ),
    },
    { key: 'created_at', header: 'Created', sortable: true, render: (u) => formatDate(u.created_at) },
  ];

  return (
    <Card withBorder style={{ background: 'var(--berth-surface)' }}>
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          Users
        </Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
          Add User
        </Button>
      </Group>
      {users.error ? (
        <Text c="red">{users.error instanceof Error ? users.error.message : String(users.error)}</Text>
      ) : (
        <DataTable
          label="Users"
          data={users.data}
          columns={columns}
          rowKey={(u) => String(u.id)}
          loading={users.isLoading}
          emptyText="No users."
          rowMenu={(u) => (
            <Menu position="bottom-end">
              <Menu.Target>
                <ActionIcon variant="subtle" aria-label={`Actions for ${u.email}`}>
                  <IconDots size={18} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => setResetting(u)}>Reset password</Menu.Item>
                <Menu.Item
                  onClick={() =>
                    update.mutate(
                      { id: u.id, disabled: !u.disabled },
                      { onSuccess: () => notifySuccess(`${u.email} ${u.disabled ? 'enabled' : 'disabled'}.`) },
                    )
                  }
                >
                  {u.disabled ? 'Enable' : 'Disable'}
                </Menu.Item>
                <Menu.Item onClick={() => endSessions.mutate(u.id, { onSuccess: (r) => notifySuccess(r.msg) })}>
                  End sessions
                </Menu.Item>
                <Menu.Item color="red" onClick={() => setDeleting(u)}>
                  Delete
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        />
      )}
      <AddUserDialog opened={adding} onClose={() => setAdding(false)} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete user"
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => notifySuccess(`User ${deleting.email} deleted.`),
            onSettled: () => setDeleting(null),
          })
        }
      >
        {`Delete ${deleting?.email ?? ''}? Their sessions and API keys end with the account.`}
      </ConfirmDialog>
    </Card>
  );
}
