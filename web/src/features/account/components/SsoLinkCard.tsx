import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { PasswordField } from '../../../components/PasswordField';
import { errorMessage } from '../../../lib/notify';
import { useOidcLink } from '../api';

/**
 * User > Security: links the account to the single sign-on provider. Berth never links an
 * existing account by its email on its own; the owner does it here, with the password (and a
 * TOTP code when on), then signs in at the provider.
 */
export function SsoLinkCard({ name, linked, totp }: { name: string; linked: boolean; totp: boolean }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const link = useOidcLink();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    link.mutate(
      { current_password: password, ...(totp && code.trim() ? { totp_code: code.trim() } : {}) },
      { onSuccess: ({ url }) => window.location.assign(url) },
    );
  };
  return (
    <Card withBorder style={{ background: 'var(--berth-surface)' }}>
      <Title order={3} size="h4" mb="sm">
        Single Sign-On
      </Title>
      {linked ? (
        <Text size="sm">This account is linked to {name}: you can sign in with it.</Text>
      ) : (
        <form onSubmit={submit} aria-label={`Link ${name}`}>
          <Stack>
            <Text size="sm">
              Link this account to your {name} account, so you can sign in with it. Confirm with your password
              {totp ? ' and a code' : ''}, then sign in at {name}.
            </Text>
            <PasswordField
              label="Current password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            {totp && (
              <TextInput
                label="TOTP code"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
              />
            )}
            {link.error && <Alert color="red">{errorMessage(link.error)}</Alert>}
            <Group justify="flex-end">
              <Button type="submit" loading={link.isPending} disabled={!password || (totp && !code.trim())}>
                Link {name}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Card>
  );
}
