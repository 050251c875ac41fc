import { Center, Code, List, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Outlet } from 'react-router-dom';
import { ApiError } from '../../../lib/api-client';
import { useEnvironment } from '../../../lib/environment';
import { useSwarmInfo } from '../api';

/** What to do when the engine is no swarm manager: one explanation instead of pages and forms that cannot work. */
function NotASwarm({ worker }: { worker: boolean }) {
  const env = useEnvironment();
  return (
    <Paper withBorder p="lg" maw={760} role="region" aria-label="Not a swarm">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {worker ? 'This engine is a swarm worker' : 'This engine is not part of a swarm'}
        </Title>
        <Text>
          Swarm pages (nodes, services, stacks, configs and secrets) need an engine that is a swarm manager. The engine
          of environment <b>{env}</b> {worker ? 'is a worker node of a swarm.' : 'runs on its own, outside any swarm.'}
        </Text>
        <Text fw={500}>To use swarm here:</Text>
        <List spacing="xs">
          {worker ? (
            <List.Item>
              Add a manager node of that swarm as an environment (Settings → Environments), or promote this node on a
              manager: <Code>docker node promote &lt;node&gt;</Code>.
            </List.Item>
          ) : (
            <>
              <List.Item>
                Make this engine a single-node swarm: on its host run <Code>docker swarm init</Code> (add{' '}
                <Code>--advertise-addr &lt;address&gt;</Code> when the host has more than one), then reload this page.
              </List.Item>
              <List.Item>
                Or join it to an existing swarm as a manager: run <Code>docker swarm join-token manager</Code> on a
                manager and the <Code>docker swarm join …</Code> command it prints on this host.
              </List.Item>
            </>
          )}
        </List>
        <Text size="sm" c="dimmed">
          Berth does not create or join a swarm itself; apps and compose projects work without one.
        </Text>
      </Stack>
    </Paper>
  );
}

/**
 * The frame of every swarm page: asks the engine once whether it is a swarm manager, and when it
 * is not shows only what to do about it (no "Conflict:" error on each page, no form that cannot work).
 */
export function SwarmGate() {
  const info = useSwarmInfo();
  if (info.isPending)
    return (
      <Center p="xl">
        <Loader aria-label="Reading the swarm" />
      </Center>
    );
  if (info.error instanceof ApiError && info.error.code === 'not_in_swarm')
    return <NotASwarm worker={/worker/i.test(info.error.detail)} />;
  return <Outlet />;
}
