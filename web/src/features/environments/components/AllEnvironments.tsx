import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import type { Environment } from '@berth/contract';
import { hashInEnvironment } from '../../../lib/environment';
import { errorMessage } from '../../../lib/notify';
import { environmentAppsQuery, environmentsQuery } from '../api';
import { StatusDot } from './StatusDot';

function EnvironmentApps({
  env,
  apps,
  error,
}: {
  env: Environment;
  apps: { Name: string; State: { Status: string } }[] | undefined;
  error: unknown;
}) {
  const running = (apps ?? []).filter((a) => a.State.Status === 'running').map((a) => a.Name.replace(/^\//, ''));
  return (
    <Paper withBorder p="md" aria-label={`Environment ${env.name}`} component="section">
      <Group gap="xs" mb="xs" wrap="nowrap">
        <StatusDot status={env.status} />
        <Anchor href={hashInEnvironment('#/', env.id)} fw={600}>
          {env.name}
        </Anchor>
        <Text size="sm" c="dimmed">
          {running.length} running
        </Text>
      </Group>
      {!env.status.reachable ? (
        <Text size="sm" c="red">
          {env.status.error ?? 'Not reachable'}
        </Text>
      ) : error ? (
        <Text size="sm" c="red">
          {errorMessage(error)}
        </Text>
      ) : running.length === 0 ? (
        <Text size="sm" c="dimmed">
          {apps ? 'No running apps.' : 'Loading…'}
        </Text>
      ) : (
        <Group gap={6}>
          {running.map((name) => (
            <Badge
              key={name}
              component="a"
              href={hashInEnvironment(`#/apps/${name}/info`, env.id)}
              variant="light"
              tt="none"
              style={{ cursor: 'pointer' }}
            >
              {name}
            </Badge>
          ))}
        </Group>
      )}
    </Paper>
  );
}

/** The dashboard's "all environments" view: each environment's running apps under its name (shown once there are several). */
export function AllEnvironments() {
  const list = useQuery(environmentsQuery());
  const envs = list.data ?? [];
  const apps = useQueries({
    queries: envs.map((e) => ({ ...environmentAppsQuery(e.id), enabled: e.status.reachable })),
  });
  if (envs.length < 2) return null;
  return (
    <Stack mt="lg" gap="sm">
      <Title order={2} size="h4">
        All environments
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {envs.map((e, i) => (
          <EnvironmentApps key={e.id} env={e} apps={apps[i]?.data} error={apps[i]?.error} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
