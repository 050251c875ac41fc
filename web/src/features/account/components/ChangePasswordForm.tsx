import { Button, Card, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ChangeAccountBody } from '@berth/contract';
import { notifySuccess } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useChangeAccount } from '../api';

function fieldErrors(username: string, password: string, confirm: string) {
  const parsed = ChangeAccountBody.safeParse({ username, password });
  const errors: { username?: string; password?: string; confirm?: string } = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === 'password' ? 'password' : 'username';
      errors[field] ??= issue.message;
    }
  }
  if (!username.trim()) errors.username = 'Email is required.';
  if (confirm !== password) errors.confirm = 'Passwords do not match.';
  return errors;
}

/** Change Password: a new email, a new password, or both. */
export function ChangePasswordForm() {
  const { username: current } = useSession();
  const [username, setUsername] = useState(current ?? '');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const change = useChangeAccount();
  const errors = fieldErrors(username, password, confirm);
  const valid = Object.keys(errors).length === 0;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!valid || change.isPending) return;
    change.mutate(
      { username: username.trim(), password },
      {
        onSuccess: (me) => {
          setPassword('');
          setConfirm('');
          setTouched(false);
          notifySuccess(`Account ${me.username} updated.`);
        },
      },
    );
  };
  const show = (field: keyof typeof errors, value: string) => (touched || value !== '' ? errors[field] : undefined);

  return (
    <Card withBorder maw={520} style={{ background: 'var(--berth-surface)' }}>
      <form onSubmit={submit} aria-label="Change user info">
        <Stack>
          <Text size="sm" c="dimmed">
            Change your email, your password, or both. Leave the password fields empty to change the email alone.
          </Text>
          <TextInput label="Email" type="email" autoComplete="username" value={username} onChange={(e) => setUsername(e.currentTarget.value)} error={show('username', username)} />
          <PasswordInput label="Password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={show('password', password)} />
          <PasswordInput label="Confirm Password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.currentTarget.value)} error={show('confirm', confirm)} />
          <Button type="submit" disabled={!valid} loading={change.isPending} w="fit-content">
            Change User Info
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
