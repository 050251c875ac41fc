import { useState } from 'react';
import { ActionIcon, Group, NumberInput, Text, Tooltip } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { swarmApi, type SwarmService } from '@berth/contract';
import { notifySuccess } from '../../../lib/notify';
import { useCan } from '../../../lib/session';
import { useUpdateService } from '../api';

/** Running / desired replicas, with the desired count editable in place (replicated services). */
export function ScaleControl({ service }: { service: SwarmService }) {
  const update = useUpdateService();
  const canScale = useCan(swarmApi.updateService);
  const [value, setValue] = useState<number | null>(null);
  const { running, desired } = service.replicas;
  if (service.mode === 'global') return <Text size="sm">{`${running} / ${desired} (global)`}</Text>;
  if (!canScale) return <Text size="sm">{`${running} / ${desired}`}</Text>;
  const target = value ?? desired;
  const apply = () =>
    update.mutate(
      { id: service.id, body: { version: service.version, replicas: target } },
      {
        onSuccess: (s) => {
          notifySuccess(`${s.name} scaled to ${s.replicas.desired}.`);
          setValue(null);
        },
      },
    );
  return (
    <Group gap={6} wrap="nowrap" onClick={(e) => e.stopPropagation()}>
      <Text size="sm" w={40}>{`${running} /`}</Text>
      <NumberInput aria-label={`Replicas of ${service.name}`} size="xs" w={80} min={0} max={1000} value={target} onChange={(v) => setValue(typeof v === 'number' ? v : null)} />
      {target !== desired && (
        <Tooltip label="Scale">
          <ActionIcon aria-label={`Scale ${service.name}`} onClick={apply} loading={update.isPending}>
            <IconCheck size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
