import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ROLES, type Role, type User } from '@berth/contract';
import { PasswordField } from '../../../components/PasswordField';
import { notifySuccess } from '../../../lib/notify';
import { useAddUser, useUpdateUser } from '../api';
import { useAdminReauth, type AdminReauth } from './AdminReauth';

export const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: r[0]!.toUpperCase() + r.slice(1) }));

/** What each role may do, one line each (the server's route roles are what enforce it). */
export const ROLE_HINTS: Record<Role, string> = {
  viewer: 'Viewer: sees apps, projects, resources and logs; environment values stay hidden.',
  operator:
    "Operator: also deploys, edits, starts and stops apps and projects, and reads environment values, within each environment's policy (an operator with bind_mounts: allow is root on that host).",
  admin: 'Admin: also manages users, environments, settings and policies; never restricted by a policy.',
};

/** 'Add User': email, first password and role, confirmed with the admin's own password (and TOTP). */
export function AddUserDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const add = useAddUser();
  const reauth = useAdminReauth();
  const close = () => {
    setEmail('');
    setPassword('');
    // Every new account starts as the least privileged role; the last one chosen is not remembered.
    setRole('viewer');
    reauth.reset();
    add.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(
      { email: email.trim(), password, role, ...reauth.value },
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
            description={
              <Stack gap={0} component="span" data-testid="role-hints">
                {ROLES.map((r) => (
                  <span key={r}>{ROLE_HINTS[r]}</span>
                ))}
              </Stack>
            }
            inputWrapperOrder={['label', 'input', 'description', 'error']}
          />
          {reauth.fields}
          <Group justify="flex-end">
            <Button type="submit" disabled={!email.trim() || !password || !reauth.complete} loading={add.isPending}>
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
  const reauth = useAdminReauth();
  const close = () => {
    setPassword('');
    reauth.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (user)
      update.mutate(
        { id: user.id, password, ...reauth.value },
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
          {reauth.fields}
          <Group justify="flex-end">
            <Button type="submit" disabled={!password || !reauth.complete} loading={update.isPending}>
              Reset Password
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A change to an account waiting for the admin's confirmation: what it does and how to run it. */
export interface PendingChange {
  title: string;
  text: string;
  confirmLabel: string;
  danger: boolean;
  run: (reauth: AdminReauth, done: () => void) => void;
}

/** Asks the admin's current password (and TOTP code) before a role change, enable/disable or delete. */
export function ConfirmChangeDialog({
  change,
  pending,
  onClose,
}: {
  change: PendingChange | null;
  pending: boolean;
  onClose: () => void;
}) {
  const reauth = useAdminReauth();
  const close = () => {
    reauth.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change?.run(reauth.value, close);
  };
  return (
    <Modal opened={change !== null} onClose={close} title={change?.title ?? ''} centered>
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm">{change?.text}</Text>
          {reauth.fields}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={pending}>
              Cancel
            </Button>
            <Button
              type="submit"
              color={change?.danger ? 'red' : undefined}
              disabled={!reauth.complete}
              loading={pending}
            >
              {change?.confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
