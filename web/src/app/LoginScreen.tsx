import { Alert, Button, Center, Divider, Group, Image, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PasswordField } from '../components/PasswordField';
import { useState, type FormEvent } from 'react';
import { authApi } from '@berth/contract';
import { TotpLoginForm } from '../features/account/components/TotpLoginForm';
import { authStatusQuery, useLogin } from '../features/account/api';
import { takeSsoError } from '../features/account/sso-error';
import { errorMessage } from '../lib/notify';

/** The only screen while signed out: password (then a TOTP code when on) and single sign-on when configured. */
export function LoginScreen() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useLogin();
  // A single sign-on the server refused comes back here with a code in the address.
  const [ssoError] = useState(takeSsoError);
  const status = useQuery(authStatusQuery());
  const filled = username.trim() !== '' && password !== '';
  const challenge = login.data && 'challenge' in login.data ? login.data.challenge : null;
  const oidcName = status.data?.oidc_name;
  const passwordLogin = status.data?.password_login !== false;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!filled || login.isPending) return;
    login.mutate({ username: username.trim(), password });
  };

  const message = login.error ? errorMessage(login.error) : null;
  return (
    <Center mih="100vh" p="md">
      <Paper
        withBorder
        shadow="md"
        p="xl"
        radius="md"
        w="100%"
        maw={400}
        style={{ background: 'var(--berth-surface)' }}
      >
        <Stack>
          <Group gap="xs" justify="center">
            <Image src="/favicon.svg" w={36} h={36} alt="" />
            <Title order={1} size="h2">
              Berth
            </Title>
          </Group>
          {ssoError && !challenge && (
            <Alert color="red" role="alert" title="Single sign-on failed">
              {ssoError}
            </Alert>
          )}
          {challenge ? (
            <TotpLoginForm challenge={challenge} />
          ) : (
            passwordLogin && (
              <form onSubmit={submit} aria-label="Sign in">
                <Stack>
                  <TextInput
                    label="Email"
                    name="username"
                    autoComplete="username"
                    autoFocus
                    value={username}
                    onChange={(e) => setUsername(e.currentTarget.value)}
                  />
                  <PasswordField
                    label="Password"
                    name="password"
                    autoComplete="current-password"
                    value={password}
                    onChange={(e) => setPassword(e.currentTarget.value)}
                  />
                  {message && (
                    <Alert color="red" role="alert">
                      {message}
                    </Alert>
                  )}
                  <Button type="submit" disabled={!filled} loading={login.isPending}>
                    Login
                  </Button>
                </Stack>
              </form>
            )
          )}
          {oidcName && !challenge && (
            <>
              {passwordLogin && <Divider label="or" />}
              <Button component="a" href={authApi.oidcLogin.path} variant="default">
                Sign in with {oidcName}
              </Button>
            </>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
