import { Group, Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import type { HostOverview } from '@berth/contract';
import { formatBytes } from '../../../lib/format';
import { UsageBar } from './UsageBar';

const percent = (used: number, total: number) => (total > 0 ? (used / total) * 100 : 0);

/** The host at a glance above the app cards: CPU, memory, the engine's disk and what the engine holds. */
export function HostHeader({ host }: { host: HostOverview | undefined }) {
  if (!host) return <Skeleton h={96} mb="md" aria-label="Loading the host overview" />;
  const { containers } = host;
  return (
    <Paper withBorder p="md" mb="md" aria-label="Host" role="region">
      <SimpleGrid cols={{ base: 1, sm: 3 }} mb="sm">
        {host.cpu_percent === null ? (
          <Text size="sm">{host.cpus} CPUs</Text>
        ) : (
          <UsageBar label="Host CPU" percent={host.cpu_percent} color="blue" detail={`of ${host.cpus} CPUs`} />
        )}
        {host.mem_used === null ? (
          <Text size="sm">Memory {formatBytes(host.mem_total)}</Text>
        ) : (
          <UsageBar
            label="Host memory"
            percent={percent(host.mem_used, host.mem_total)}
            color="grape"
            detail={`${formatBytes(host.mem_used)} / ${formatBytes(host.mem_total)}`}
          />
        )}
        {host.disk ? (
          <UsageBar
            label="Disk"
            percent={percent(host.disk.used, host.disk.total)}
            color="teal"
            detail={`${formatBytes(host.disk.used)} / ${formatBytes(host.disk.total)}`}
          />
        ) : (
          <Text size="sm" c="dimmed">
            Disk use unknown
          </Text>
        )}
      </SimpleGrid>
      <Group gap="lg" data-testid="host-counts">
        <Text size="sm">
          <b>{containers.running}</b> running · <b>{containers.stopped}</b> stopped
        </Text>
        <Text size="sm">
          <b>{host.images}</b> images
        </Text>
        <Text size="sm">
          <b>{host.volumes}</b> volumes
        </Text>
        {host.engine_version && (
          <Text size="sm" c="dimmed">
            Docker {host.engine_version}
          </Text>
        )}
      </Group>
    </Paper>
  );
}
