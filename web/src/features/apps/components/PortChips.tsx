import { Badge, Group, Text, Tooltip } from '@mantine/core';
import type { PortMap } from '@berth/contract';
import { portChips } from '../model';

/**
 * Published ports as chips 'HostPort:container/proto' that open the port in a new tab: on the
 * page's own host for wildcard bindings, else on the bound address.
 */
export function PortChips({ ports, labels }: { ports: PortMap; labels: Record<string, string> }) {
  const chips = portChips(ports, labels, window.location.hostname);
  if (chips.length === 0) return <Text c="dimmed">-</Text>;
  return (
    <Group gap={4}>
      {chips.map((c) => (
        <Tooltip key={`${c.hostIp}|${c.hostPort}|${c.containerPort}/${c.proto}`} label={c.href} openDelay={400}>
          <Badge
            component="a"
            href={c.href}
            target="_blank"
            rel="noopener noreferrer"
            variant="outline"
            tt="none"
            style={{ cursor: 'pointer' }}
            onClick={(e) => e.stopPropagation()}
          >
            {c.label ? `${c.label} ` : ''}
            {c.hostPort}:{c.containerPort}/{c.proto}
          </Badge>
        </Tooltip>
      ))}
    </Group>
  );
}
