import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { FieldGrid } from '../../../components/Fields';
import { formatDate } from '../../../lib/format';
import { useNodes, useServices, useSwarmInfo } from '../api';

function Tile({ label, value, detail }: { label: string; value: string | number; detail: string }) {
  return (
    <Paper withBorder p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Title order={3}>{value}</Title>
      <Text size="sm" c="dimmed">
        {detail}
      </Text>
    </Paper>
  );
}

/** Nodes, services and tasks at a glance, then the cluster's settings. */
export function SwarmOverview() {
  const info = useSwarmInfo();
  const nodes = useNodes();
  const services = useServices();
  if (info.error) return <Text c="red">{info.error.message}</Text>;
  const ready = nodes.data?.filter((n) => n.state === 'ready').length ?? 0;
  const running = services.data?.reduce((n, s) => n + s.replicas.running, 0) ?? 0;
  const desired = services.data?.reduce((n, s) => n + s.replicas.desired, 0) ?? 0;
  const s = info.data;
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Tile
          label="Nodes"
          value={nodes.data?.length ?? '-'}
          detail={`${ready} ready, ${s?.managers ?? 0} manager(s)`}
        />
        <Tile
          label="Services"
          value={services.data?.length ?? '-'}
          detail={`${services.data?.filter((x) => x.stack).length ?? 0} in stacks`}
        />
        <Tile label="Tasks" value={`${running} / ${desired}`} detail="running / desired" />
      </SimpleGrid>
      {s && (
        <FieldGrid
          fields={[
            { label: 'Cluster ID', value: s.id, mono: true },
            { label: 'Created', value: formatDate(s.createdAt) },
            { label: 'This node', value: `${s.nodeId.slice(0, 12)} (${s.nodeAddr})`, mono: true },
            { label: 'Address pools', value: s.defaultAddrPool.join(', ') },
            { label: 'Data path port', value: s.dataPathPort ?? '-' },
            {
              label: 'Raft',
              value: `snapshot every ${s.raft.snapshotInterval}, election tick ${s.raft.electionTick}, heartbeat tick ${s.raft.heartbeatTick}`,
            },
            { label: 'Dispatcher heartbeat', value: `${s.dispatcherHeartbeatSeconds} s` },
            { label: 'Task history kept', value: s.taskHistoryRetentionLimit },
            { label: 'Autolock', value: s.autoLockManagers ? 'on' : 'off' },
          ]}
        />
      )}
    </Stack>
  );
}
