import { useState } from 'react';
import { ActionIcon, Group, NumberInput, Popover, Text, Tooltip } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { swarmApi, type SwarmService } from '@berth/contract';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCan } from '../../../lib/session';
import { useRereadSwarm, useUpdateService } from '../api';
import { isStaleWrite } from '../form-model';
import { StaleServiceNotice } from './StaleServiceNotice';

/**
 * Running / desired replicas, with the desired count editable in place (replicated services). A
 * scale sent with a version that moved meanwhile is refused (409): shown as the edit form shows
 * it, with a Reload that reads the services again (the typed count stays, to send once more).
 */
export function ScaleControl({ service }: { service: SwarmService }) {
  const update = useUpdateService({ notifyError: false });
  const reread = useRereadSwarm();
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
        onError: (err) => {
          if (!isStaleWrite(err)) notifyError(err);
        },
      },
    );
  const reload = async () => {
    await reread();
    update.reset();
  };
  return (
    <Popover opened={isStaleWrite(update.error)} onChange={(open) => !open && update.reset()} width={360} withArrow>
      <Popover.Target>
        <Group gap={6} wrap="nowrap" onClick={(e) => e.stopPropagation()}>
          <Text size="sm" w={40}>{`${running} /`}</Text>
          <NumberInput
            aria-label={`Replicas of ${service.name}`}
            size="xs"
            w={80}
            min={0}
            max={1000}
            value={target}
            onChange={(v) => setValue(typeof v === 'number' ? v : null)}
          />
          {target !== desired && (
            <Tooltip label="Scale">
              <ActionIcon aria-label={`Scale ${service.name}`} onClick={apply} loading={update.isPending}>
                <IconCheck size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Popover.Target>
      <Popover.Dropdown onClick={(e) => e.stopPropagation()}>
        <StaleServiceNotice change="scale" next="see its current replicas, then scale again" onReload={reload} />
      </Popover.Dropdown>
    </Popover>
  );
}
