import { ActionIcon, Badge, Button, Card, Group, Menu, Select, Stack, Text, Title } from '@mantine/core';
import { IconDots, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ROLES, type Role, type User } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteUser, useEndUserSessions, useUpdateUser, usersQuery } from '../api';
import {
  AddUserDialog,
  ConfirmChangeDialog,
  ResetPasswordDialog,
  ROLE_HINTS,
  ROLE_OPTIONS,
  type PendingChange,
} from './UserDialogs';

/** Settings > Users: every account, its role and state, with add, reset password, disable, end sessions and delete. */
export function UsersCard() {
  const users = useQuery(usersQuery());
  const update = useUpdateUser();
  const endSessions = useEndUserSessions();
  const remove = useDeleteUser();
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<User | null>(null);
  const [change, setChange] = useState<PendingChange | null>(null);
  const changeRole = (u: User, role: Role) =>
    setChange({
      title: `Change the role of ${u.email}`,
      text: `Make ${u.email} ${role === 'admin' ? 'an' : 'a'} ${role}? It applies at once to their sessions and API keys.`,
      confirmLabel: 'Change Role',
      danger: false,
      run: (reauth, done) =>
        update.mutate(
          { id: u.id, role, ...reauth },
          { onSuccess: () => (notifySuccess(`${u.email} is now ${role}.`), done()) },
        ),
    });
  const toggle = (u: User) =>
    setChange({
      title: `${u.disabled ? 'Enable' : 'Disable'} ${u.email}`,
      text: u.disabled
        ? `Let ${u.email} sign in again?`
        : `Disable ${u.email}? Their sessions end, their open terminals and streams close and their API keys stop working.`,
      confirmLabel: u.disabled ? 'Enable' : 'Disable',
      danger: !u.disabled,
      run: (reauth, done) =>
        update.mutate(
          { id: u.id, disabled: !u.disabled, ...reauth },
          { onSuccess: () => (notifySuccess(`${u.email} ${u.disabled ? 'enabled' : 'disabled'}.`), done()) },
        ),
    });
  const askDelete = (u: User) =>
    setChange({
      title: 'Delete user',
      text: `Delete ${u.email}? Their sessions and API keys end with the account.`,
      confirmLabel: 'Delete',
      danger: true,
      run: (reauth, done) =>
        remove.mutate(
          { id: u.id, ...reauth },
          { onSuccess: () => (notifySuccess(`User ${u.email} deleted.`), done()) },
        ),
    });

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
          onChange={(v) => v && v !== u.role && changeRole(u, v as Role)}
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
      <Stack gap={0} mb="sm" data-testid="role-summary">
        {ROLES.map((r) => (
          <Text key={r} size="sm" c="dimmed">
            {ROLE_HINTS[r]}
          </Text>
        ))}
        <Text size="sm" c="dimmed">
          What operators may put into containers is set per environment in Settings → Environments → Policy.
        </Text>
      </Stack>
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
                <Menu.Item onClick={() => toggle(u)}>{u.disabled ? 'Enable' : 'Disable'}</Menu.Item>
                <Menu.Item onClick={() => endSessions.mutate(u.id, { onSuccess: (r) => notifySuccess(r.msg) })}>
                  End sessions
                </Menu.Item>
                <Menu.Item color="red" onClick={() => askDelete(u)}>
                  Delete
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        />
      )}
      <AddUserDialog opened={adding} onClose={() => setAdding(false)} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
      <ConfirmChangeDialog
        change={change}
        pending={update.isPending || remove.isPending}
        onClose={() => setChange(null)}
      />
    </Card>
  );
}
