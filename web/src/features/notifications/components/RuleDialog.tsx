import { useState } from 'react';
import {
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { Button } from '@mantine/core';
import { isThresholdEvent, NOTIFY_EVENTS, type NotifyEvent, type Rule } from '@berth/contract';
import { notifyError } from '../../../lib/notify';
import { useAddRule } from '../api';
import { EVENT_LABELS } from '../model';

/** Adds a rule: its event, channels, scope, quiet period, and a restart loop's or a threshold's condition. */
export function RuleDialog({
  onClose,
  channels,
}: {
  onClose: () => void;
  channels: { value: string; label: string }[];
}) {
  const add = useAddRule();
  const [event, setEvent] = useState<NotifyEvent>('container_died');
  const [picked, setPicked] = useState<string[]>([]);
  const [scope, setScope] = useState({ environment: '', app: '', project: '' });
  const [quiet, setQuiet] = useState<number>(10);
  const [restarts, setRestarts] = useState<number>(3);
  const [within, setWithin] = useState<number>(10);
  const [threshold, setThreshold] = useState<number>(80);
  const [forMinutes, setForMinutes] = useState<number>(5);
  const [of, setOf] = useState<Rule['of']>('limit');
  const [volume, setVolume] = useState('');
  const isThreshold = isThresholdEvent(event);
  const save = () => {
    const s = Object.fromEntries(
      Object.entries({ ...scope, ...(event === 'volume_size' ? { volume } : {}) })
        .filter(([, v]) => v.trim())
        .map(([k, v]) => [k, v.trim()]),
    );
    add.mutate(
      {
        event,
        channels: picked.map(Number),
        scope: s,
        quiet_minutes: quiet,
        ...(event === 'restart_loop' ? { restarts, within_minutes: within } : {}),
        ...(isThreshold ? { threshold, for_minutes: forMinutes, of } : {}),
      },
      { onSuccess: onClose, onError: (e) => notifyError(e) },
    );
  };
  return (
    <Modal opened onClose={onClose} title="Add a notification rule" centered>
      <Stack>
        <Select
          label="When"
          data={NOTIFY_EVENTS.map((e) => ({ value: e, label: EVENT_LABELS[e] }))}
          value={event}
          allowDeselect={false}
          onChange={(v) => setEvent((v ?? 'container_died') as NotifyEvent)}
        />
        <MultiSelect label="Send to" data={channels} value={picked} onChange={setPicked} required />
        <Group grow>
          <TextInput
            label="Environment"
            placeholder="any"
            value={scope.environment}
            onChange={(e) => setScope({ ...scope, environment: e.currentTarget.value })}
          />
          <TextInput
            label="App"
            placeholder="any"
            value={scope.app}
            onChange={(e) => setScope({ ...scope, app: e.currentTarget.value })}
          />
          <TextInput
            label="Project"
            placeholder="any"
            value={scope.project}
            onChange={(e) => setScope({ ...scope, project: e.currentTarget.value })}
          />
        </Group>
        {event === 'restart_loop' && (
          <Group grow>
            <NumberInput label="Starts" min={2} value={restarts} onChange={(v) => setRestarts(Number(v))} />
            <NumberInput label="Within minutes" min={1} value={within} onChange={(v) => setWithin(Number(v))} />
          </Group>
        )}
        {isThreshold && (
          <>
            <Group grow align="flex-start">
              <NumberInput
                label={event === 'volume_size' ? 'Above (GB)' : 'Above (%)'}
                min={0}
                decimalScale={1}
                value={threshold}
                onChange={(v) => setThreshold(Number(v))}
              />
              {event !== 'volume_size' && (
                <NumberInput
                  label="For (minutes)"
                  min={0}
                  decimalScale={2}
                  value={forMinutes}
                  onChange={(v) => setForMinutes(Number(v))}
                />
              )}
            </Group>
            {event.startsWith('app_') && (
              <SegmentedControl
                aria-label="Percent of"
                value={of}
                onChange={(v) => setOf(v as Rule['of'])}
                data={[
                  { value: 'limit', label: 'Of its limit' },
                  { value: 'host', label: 'Of the host' },
                ]}
              />
            )}
            {event === 'volume_size' && (
              <TextInput
                label="Volume"
                placeholder="any"
                value={volume}
                onChange={(e) => setVolume(e.currentTarget.value)}
              />
            )}
            <Text size="xs" c="dimmed">
              {event === 'volume_size'
                ? 'Volume sizes are measured at most every 10 minutes.'
                : 'Fires once, and again only after the reading was back below for as long.'}
            </Text>
          </>
        )}
        <NumberInput
          label="Quiet period (minutes)"
          description="After a message, the same rule stays quiet this long for the same app."
          min={0}
          value={quiet}
          onChange={(v) => setQuiet(Number(v))}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={add.isPending} disabled={picked.length === 0}>
            Add
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
