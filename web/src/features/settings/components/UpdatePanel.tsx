import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { IconCloudDownload, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { SELF_UPDATE_MESSAGE, type SelfUpdateOutcome } from '@berth/contract';
import { useLogout } from '../../account';
import { errorMessage, notifyPlain } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { PasswordField } from '../../../components/PasswordField';
import { updateCheckQuery, useSelfUpdate } from '../api';

/** Spec: the wait between starting the self-update and the logout. */
export const POST_UPDATE_WAIT_MS = 5000;

const OUTCOME_TEXT: Record<SelfUpdateOutcome['result'], { color: string; title: string }> = {
  updated: { color: 'green', title: 'The last update succeeded' },
  rolled_back: { color: 'yellow', title: 'The last update was rolled back' },
  failed: { color: 'red', title: 'The last update failed' },
};

/** Settings → Update: enabled only when a newer image exists; then a 5 s wait and logout (unless auth is off). */
export function UpdatePanel() {
  const check = useQuery(updateCheckQuery());
  const update = useSelfUpdate();
  const logout = useLogout();
  const { authDisabled } = useSession();
  const [started, setStarted] = useState(false);
  const [current, setCurrent] = useState('');
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const start = () =>
    update.mutate(current, {
      onSuccess: () => {
        setStarted(true);
        notifyPlain(SELF_UPDATE_MESSAGE, 'blue');
        timer.current = window.setTimeout(() => {
          if (!authDisabled) logout.mutate();
        }, POST_UPDATE_WAIT_MS);
      },
    });

  const last = check.data?.lastUpdate;
  return (
    <Card withBorder maw={720} style={{ background: 'var(--berth-surface)' }}>
      <Stack gap="md">
        <Text size="sm">
          Updating pulls the newest image of Berth&apos;s own container and replaces the container with one of the same
          configuration. Berth restarts during the update and you will be logged out; if the new version does not come
          up healthy, the previous one is started again.
        </Text>
        {check.isLoading && <Loader size="sm" aria-label="Checking for an update" />}
        {check.error && <Alert color="red">{errorMessage(check.error)}</Alert>}
        {check.data && (
          <Text size="sm" c={check.data.updatable ? undefined : 'dimmed'} data-testid="update-status">
            {check.data.updatable
              ? `A newer image of ${check.data.image ?? 'Berth'} is available.`
              : (check.data.reason ?? 'Berth is up to date.')}
          </Text>
        )}
        {last && (
          <Alert color={OUTCOME_TEXT[last.result].color} title={OUTCOME_TEXT[last.result].title}>
            {last.detail} ({new Date(last.finishedAt).toLocaleString()})
          </Alert>
        )}
        {started && <Alert color="blue">{SELF_UPDATE_MESSAGE}</Alert>}
        <Group align="flex-end">
          {!authDisabled && check.data?.updatable && !started && (
            <PasswordField
              label="Current Password"
              required
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.currentTarget.value)}
              w={240}
            />
          )}
          <Button
            leftSection={<IconCloudDownload size={16} />}
            disabled={!check.data?.updatable || started || (!authDisabled && !current)}
            loading={update.isPending}
            onClick={start}
          >
            Update Berth
          </Button>
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={check.isFetching}
            onClick={() => void check.refetch()}
          >
            Check again
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
