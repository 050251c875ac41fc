import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/notify';
import { useLoginTotp } from '../api';

/** The second sign-in step with TOTP on: a code from the app, or a recovery code. */
export function TotpLoginForm({ challenge }: { challenge: string }) {
  const [code, setCode] = useState('');
  const [useRecovery, setUseRecovery] = useState(false);
  const login = useLoginTotp();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim() || login.isPending) return;
    login.mutate(useRecovery ? { challenge, recovery_code: code.trim() } : { challenge, code: code.trim() });
  };
  return (
    <form onSubmit={submit} aria-label="Two-factor sign-in">
      <Stack>
        <Text size="sm">
          {useRecovery ? 'Enter one of your recovery codes.' : 'Enter the 6-digit code from your authenticator app.'}
        </Text>
        <TextInput
          label={useRecovery ? 'Recovery code' : 'Code'}
          name="code"
          autoComplete="one-time-code"
          inputMode={useRecovery ? 'text' : 'numeric'}
          autoFocus
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
        />
        {login.error && (
          <Alert color="red" role="alert">
            {errorMessage(login.error)}
          </Alert>
        )}
        <Button type="submit" disabled={!code.trim()} loading={login.isPending}>
          Verify
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={() => (setUseRecovery(!useRecovery), setCode(''))}>
          {useRecovery ? 'Use a code from the app' : 'Use a recovery code'}
        </Anchor>
      </Stack>
    </form>
  );
}
