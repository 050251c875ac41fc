import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ROLES, type Role, type User } from '@berth/contract';
import { PasswordField } from '../../../components/PasswordField';
import { notifySuccess } from '../../../lib/notify';
import { useAddUser, useUpdateUser } from '../api';

export const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: r[0]!.toUpperCase() + r.slice(1) }));

/** 'Add User': email, first password and role. */
export function AddUserDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const add = useAddUser();
  const close = () => {
    setEmail('');
    setPassword('');
    add.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(
      { email: email.trim(), password, role },
      { onSuccess: (u) => (notifySuccess(`User ${u.email} added.`), close()) },
    );
  };
  return (
    <Modal opened={opened} onClose={close} title="Add User" centered>
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="Email"
            type="email"
            required
            data-autofocus
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <PasswordField
            label="Password"
            required
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Select
            label="Role"
            data={ROLE_OPTIONS}
            value={role}
            onChange={(v) => v && setRole(v as Role)}
            allowDeselect={false}
          />
          <Group justify="flex-end">
            <Button type="submit" disabled={!email.trim() || !password} loading={add.isPending}>
              Add User
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** 'Reset Password': a new password ends the user's sessions and revokes their API keys. */
export function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const update = useUpdateUser();
  const close = () => {
    setPassword('');
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (user)
      update.mutate(
        { id: user.id, password },
        { onSuccess: () => (notifySuccess(`Password of ${user.email} reset.`), close()) },
      );
  };
  return (
    <Modal opened={user !== null} onClose={close} title={`Reset password of ${user?.email ?? ''}`} centered>
      <form onSubmit={submit}>
        <Stack>
          <PasswordField
            label="New Password"
            description="Ends the user's sessions and revokes their API keys."
            required
            autoComplete="new-password"
            data-autofocus
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button type="submit" disabled={!password} loading={update.isPending}>
              Reset Password
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
