import { useCallback, useRef, useState } from 'react';
import { Alert, Button, Center, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { IconClipboard, IconCopy, IconRefresh } from '@tabler/icons-react';
import type { ShellName } from '@berth/contract';
import { errorMessage, notifyError, notifyPlain } from '../../../lib/notify';
import { targetLabel, useShells, type TerminalTarget } from '../api/terminal';
import type { SessionState } from '../model';
import { XtermSession } from './XtermSession';

type XtermTerminal = Parameters<React.ComponentProps<typeof XtermSession>['onTerminal']>[0];

const STATE_TEXT = { connecting: 'Connecting…', open: 'Connected' } as const;

/** A terminal into a running app or compose service: shell picker, reconnect, copy and paste, and the session. */
export function TerminalPanel({ target }: { target: TerminalTarget }) {
  const shells = useShells(target);
  const [picked, setPicked] = useState<ShellName | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<SessionState>({ kind: 'connecting' });
  const term = useRef<XtermTerminal | null>(null);
  const onTerminal = useCallback((t: XtermTerminal | null) => {
    term.current = t;
  }, []);
  const { refetch } = shells;
  const onState = useCallback(
    (s: SessionState) => {
      setState(s);
      // The app may have stopped: asking again turns the panel into the server's "not running" answer.
      if (s.kind === 'ended') void refetch();
    },
    [refetch],
  );

  if (shells.isLoading) {
    return (
      <Center py="xl">
        <Loader aria-label="Looking for shells" />
      </Center>
    );
  }
  if (shells.error) {
    return (
      <Alert color="yellow" title="No terminal">
        {errorMessage(shells.error)}
      </Alert>
    );
  }
  const available = shells.data?.shells ?? [];
  const shell = picked ?? available[0];
  if (!shell) {
    return (
      <Alert color="yellow" title="No shell">
        {targetLabel(target)} has none of bash, ash, sh or zsh, so no terminal can open in it.
      </Alert>
    );
  }

  const reconnect = () => {
    void shells.refetch();
    setAttempt((n) => n + 1);
  };
  const copy = async () => {
    const text = term.current?.getSelection() ?? '';
    if (!text) return notifyPlain('Select text in the terminal first', 'blue');
    try {
      await navigator.clipboard.writeText(text);
      notifyPlain('Copied to clipboard');
    } catch (err) {
      notifyError(err);
    }
  };
  const paste = async () => {
    try {
      term.current?.paste(await navigator.clipboard.readText());
      term.current?.focus();
    } catch (err) {
      notifyError(err);
    }
  };

  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="wrap">
        <Select
          aria-label="Shell"
          size="xs"
          w={110}
          data={available}
          value={shell}
          allowDeselect={false}
          onChange={(v) => {
            setPicked(v as ShellName);
            setAttempt((n) => n + 1);
          }}
        />
        <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={reconnect}>
          Reconnect
        </Button>
        <Button size="xs" variant="default" leftSection={<IconCopy size={14} />} onClick={() => void copy()}>
          Copy
        </Button>
        <Button size="xs" variant="default" leftSection={<IconClipboard size={14} />} onClick={() => void paste()}>
          Paste
        </Button>
        <Text size="sm" c={state.kind === 'ended' ? 'orange' : 'dimmed'} role="status">
          {state.kind === 'ended' ? state.message : STATE_TEXT[state.kind]}
        </Text>
      </Group>
      <XtermSession
        key={`${shell}-${attempt}`}
        target={target}
        shell={shell}
        onState={onState}
        onTerminal={onTerminal}
      />
    </Stack>
  );
}
