import { Button, Card, Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ChangeAccountBody } from '@berth/contract';
import { PasswordField } from '../../../components/PasswordField';
import { notifySuccess } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useChangeAccount } from '../api';

interface Fields {
  username: string;
  password: string;
  confirm: string;
  current: string;
}

function fieldErrors({ username, password, confirm, current }: Fields) {
  const parsed = ChangeAccountBody.safeParse({ username, password });
  const errors: Partial<Record<keyof Fields, string>> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === 'password' ? 'password' : 'username';
      errors[field] ??= issue.message;
    }
  }
  if (!username.trim()) errors.username = 'Email is required.';
  if (confirm !== password) errors.confirm = 'Passwords do not match.';
  if (!current) errors.current = 'Enter your current password to confirm the change.';
  return errors;
}

/** Change Password: a new email, a new password, or both, confirmed with the current password. */
export function ChangePasswordForm() {
  const { username: signedInAs } = useSession();
  const [fields, setFields] = useState<Fields>({ username: signedInAs ?? '', password: '', confirm: '', current: '' });
  const [keepKeys, setKeepKeys] = useState(false);
  const [touched, setTouched] = useState(false);
  const change = useChangeAccount();
  const errors = fieldErrors(fields);
  const changed = fields.username.trim().toLowerCase() !== (signedInAs ?? '').toLowerCase() || fields.password !== '';
  const valid = Object.keys(errors).length === 0;
  const set = (key: keyof Fields) => (e: { currentTarget: { value: string } }) => {
    // Read now: React clears currentTarget before a functional update runs.
    const value = e.currentTarget.value;
    setFields((f) => ({ ...f, [key]: value }));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!valid || !changed || change.isPending) return;
    change.mutate(
      {
        username: fields.username.trim(),
        password: fields.password,
        current_password: fields.current,
        keep_api_keys: keepKeys,
      },
      {
        onSuccess: (me) => {
          setFields({ username: me.username, password: '', confirm: '', current: '' });
          setTouched(false);
          notifySuccess(`Account ${me.username} updated.`);
        },
      },
    );
  };
  // An emptied email is an edit too (the field starts filled), so its message shows at once.
  const show = (key: keyof Fields) => (touched || fields[key] !== '' || key === 'username' ? errors[key] : undefined);

  return (
    <Card withBorder maw={520} style={{ background: 'var(--berth-surface)' }}>
      <form onSubmit={submit} aria-label="Change user info">
        <Stack>
          <Text size="sm" c="dimmed">
            Change your email, your password, or both. Leave the password fields empty to change the email alone.
          </Text>
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            value={fields.username}
            onChange={set('username')}
            error={show('username')}
          />
          <PasswordField
            label="Password"
            autoComplete="new-password"
            value={fields.password}
            onChange={set('password')}
            error={show('password')}
          />
          <PasswordField
            label="Confirm Password"
            autoComplete="new-password"
            value={fields.confirm}
            onChange={set('confirm')}
            error={show('confirm')}
          />
          {fields.password !== '' && (
            <Checkbox
              label="Keep my API keys (a new password revokes them otherwise)"
              checked={keepKeys}
              onChange={(e) => setKeepKeys(e.currentTarget.checked)}
            />
          )}
          <PasswordField
            label="Current Password"
            autoComplete="current-password"
            value={fields.current}
            onChange={set('current')}
            error={touched ? errors.current : undefined}
          />
          <Button type="submit" disabled={!valid || !changed} loading={change.isPending} w="fit-content">
            Change User Info
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
