import {
  Alert,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Image,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCopy, IconDownload } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import type { TotpSetup } from '@berth/contract';
import { PasswordField } from '../../../components/PasswordField';
import { notifyPlain, notifySuccess } from '../../../lib/notify';
import { saveFile } from '../../../lib/save-file';
import { useTotpDisable, useTotpEnable, useTotpSetup } from '../api';

/** The recovery codes as a text file: one code a line, under a line saying what they are. */
function recoveryFile(codes: string[]): Blob {
  const head = `Berth recovery codes for ${window.location.host}. Each one signs you in once without the app.`;
  return new Blob([[head, '', ...codes, ''].join('\n')], { type: 'text/plain' });
}

/**
 * User > Security: two-factor sign-in. Setup shows the QR code (and the secret to type by hand);
 * a code from the app turns it on and shows the recovery codes once.
 */
export function TotpCard({ enabled, onChange }: { enabled: boolean; onChange: () => void }) {
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const start = useTotpSetup();
  const enable = useTotpEnable();
  const disable = useTotpDisable();

  const submitEnable = (e: FormEvent) => {
    e.preventDefault();
    enable.mutate(code.trim(), {
      onSuccess: (r) => (setRecovery(r.recovery_codes), setSetup(null), setCode(''), onChange()),
    });
  };
  const submitDisable = (e: FormEvent) => {
    e.preventDefault();
    disable.mutate(
      { password, code: code.trim() },
      { onSuccess: () => (notifySuccess('Two-factor sign-in is off.'), setPassword(''), setCode(''), onChange()) },
    );
  };

  return (
    <Card withBorder style={{ background: 'var(--berth-surface)' }}>
      <Title order={3} size="h4" mb="sm">
        Two-Factor Sign-In (TOTP)
      </Title>
      {recovery && (
        <Alert color="yellow" title="Recovery codes" mb="md" withCloseButton onClose={() => setRecovery(null)}>
          <Text size="sm" mb="xs">
            Keep these somewhere safe: each one signs you in once without the app. They are not shown again.
          </Text>
          <SimpleGrid cols={2} aria-label="Recovery codes">
            {recovery.map((c) => (
              <Code key={c}>{c}</Code>
            ))}
          </SimpleGrid>
          <Group mt="sm" gap="xs">
            <CopyButton value={recovery.join('\n')}>
              {({ copied, copy }) => (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconCopy size={14} />}
                  onClick={() => (copy(), notifyPlain('Recovery codes copied to the clipboard'))}
                >
                  {copied ? 'Copied' : 'Copy all'}
                </Button>
              )}
            </CopyButton>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconDownload size={14} />}
              onClick={() => saveFile(recoveryFile(recovery), 'berth-recovery-codes.txt')}
            >
              Download
            </Button>
          </Group>
        </Alert>
      )}
      {enabled ? (
        <form onSubmit={submitDisable} aria-label="Turn off two-factor sign-in">
          <Stack>
            <Text size="sm">Two-factor sign-in is on. To turn it off, confirm with your password and a code.</Text>
            <PasswordField
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <TextInput
              label="Code or recovery code"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
            />
            <Group>
              <Button type="submit" color="red" disabled={!password || !code.trim()} loading={disable.isPending}>
                Turn Off
              </Button>
            </Group>
          </Stack>
        </form>
      ) : setup ? (
        <form onSubmit={submitEnable} aria-label="Turn on two-factor sign-in">
          <Stack>
            <Text size="sm">Scan this code with an authenticator app, then enter the 6-digit code it shows.</Text>
            <Image src={setup.qr} alt="QR code for the authenticator app" w={200} h={200} />
            <Text size="sm">
              Or type the key: <Code>{setup.secret}</Code>
            </Text>
            <TextInput
              label="Code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
            />
            <Group>
              <Button type="submit" disabled={!/^\d{6}$/.test(code.trim())} loading={enable.isPending}>
                Turn On
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Group>
          <Text size="sm">Two-factor sign-in is off.</Text>
          <Button onClick={() => start.mutate(undefined, { onSuccess: setSetup })} loading={start.isPending}>
            Set Up
          </Button>
        </Group>
      )}
    </Card>
  );
}
