import { Accordion, Badge, Button, Group, Text } from '@mantine/core';
import type { ComposeService, ServiceAction } from '@berth/contract';
import { useProjectAction } from '../api/mutations';
import { ServiceFields } from './ServiceFields';

const SERVICE_BUTTONS: { action: ServiceAction; label: string }[] = [
  { action: 'up', label: 'Up' },
  { action: 'start', label: 'Start' },
  { action: 'stop', label: 'Stop' },
  { action: 'restart', label: 'Restart' },
  { action: 'pull', label: 'Pull' },
  { action: 'kill', label: 'Kill' },
  { action: 'rm', label: 'Remove' },
];

const STATUS_COLOR: Record<string, string> = { running: 'green', exited: 'red', created: 'blue', paused: 'yellow', restarting: 'orange' };

/** One service: its image and live status, its own actions, and its fields. */
export function ServicePanel({ project, name, service, status }: { project: string; name: string; service: ComposeService; status: string }) {
  const action = useProjectAction();
  return (
    <Accordion.Item value={name}>
      <Accordion.Control aria-label={`Service ${name}`}>
        <Group gap="sm" wrap="wrap">
          <Text fw={600}>{name}</Text>
          <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {service.image ?? 'No Image'}
          </Text>
          <Badge variant="light" color={STATUS_COLOR[status.split(',')[0] ?? ''] ?? 'gray'} data-testid={`status-${name}`}>
            {status}
          </Badge>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Group gap="xs" mb="sm">
          {SERVICE_BUTTONS.map((b) => (
            <Button
              key={b.action}
              size="xs"
              variant="light"
              color={b.action === 'rm' || b.action === 'kill' ? 'red' : undefined}
              disabled={action.isPending}
              loading={action.isPending && action.variables?.service === name && action.variables.action === b.action}
              onClick={() => action.mutate({ name: project, action: b.action, service: name })}
              aria-label={`${b.label} ${name}`}
            >
              {b.label}
            </Button>
          ))}
        </Group>
        <ServiceFields service={service} />
      </Accordion.Panel>
    </Accordion.Item>
  );
}
