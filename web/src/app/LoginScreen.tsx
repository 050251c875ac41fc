import { Alert, Button, Center, Group, Image, Paper, Stack, TextInput, Title } from '@mantine/core';
import { PasswordField } from '../components/PasswordField';
import { useState, type FormEvent } from 'react';
import { useLogin } from '../features/account/api';
import { errorMessage } from '../lib/notify';

/** The only screen while signed out. */
export function LoginScreen() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useLogin();
  const filled = username.trim() !== '' && password !== '';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!filled || login.isPending) return;
    login.mutate({ username: username.trim(), password });
  };

  const message = login.error ? errorMessage(login.error) : null;
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="md" p="xl" radius="md" w="100%" maw={400} style={{ background: 'var(--berth-surface)' }}>
        <form onSubmit={submit} aria-label="Sign in">
          <Stack>
            <Group gap="xs" justify="center">
              <Image src="/favicon.svg" w={36} h={36} alt="" />
              <Title order={1} size="h2">
                Berth
              </Title>
            </Group>
            <TextInput label="Email" name="username" autoComplete="username" autoFocus value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
            <PasswordField label="Password" name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
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
      </Paper>
    </Center>
  );
}
