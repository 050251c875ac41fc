import { useState } from 'react';
import { Badge, Button, Group, Modal, MultiSelect, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { notificationsApi, NOTIFY_EVENTS, type NotifyEvent, type Rule } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { DataTable, type Column } from '../../../components/DataTable';
import { Section } from '../../../components/Section';
import { notifyError } from '../../../lib/notify';
import { useCan } from '../../../lib/session';
import { channelsQuery, rulesQuery, useAddRule, useRemoveRule } from '../api';

export const EVENT_LABELS: Record<NotifyEvent, string> = {
  container_died: 'Container crashed (non-zero exit; not stops made through Berth or the CLI)',
  container_stopped: 'Container stopped (by anyone, any exit code)',
  container_started: 'Container started',
  health_changed: 'Health changed (healthy, unhealthy, starting)',
  oom: 'Killed for memory (OOM)',
  unhealthy: 'Health check failing',
  restart_loop: 'Restart loop',
  update_available: 'Update available',
  auto_update: 'Auto-update done or rolled back',
  compose_failed: 'Compose action failed',
  backup_failed: 'Backup failed',
  restore_drill_failed: 'Restore drill failed',
  environment_down: 'Environment unreachable / recovered',
};

const scopeText = (r: Rule) =>
  Object.entries(r.scope)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ') || 'everything';

/** Settings → Notifications: which events notify which channels. */
export function RulesCard() {
  const rules = useQuery(rulesQuery());
  const channels = useQuery(channelsQuery());
  const remove = useRemoveRule();
  const [adding, setAdding] = useState(false);
  const channelName = (id: number) => channels.data?.find((c) => c.id === id)?.name ?? `#${id}`;
  const canRemove = useCan(notificationsApi.removeRule);
  const columns: Column<Rule>[] = [
    { key: 'event', header: 'Event', render: (r) => EVENT_LABELS[r.event] },
    {
      key: 'channels',
      header: 'Channels',
      render: (r) =>
        r.channels.map((id) => (
          <Badge key={id} variant="light" mr={4}>
            {channelName(id)}
          </Badge>
        )),
      searchValue: (r) => r.channels.map(channelName).join(' '),
    },
    { key: 'scope', header: 'Applies to', render: scopeText, searchValue: scopeText },
    { key: 'quiet_minutes', header: 'Quiet period', render: (r) => `${r.quiet_minutes} min` },
    {
      key: 'actions',
      header: 'Actions',
      noSearch: true,
      sortable: false,
      render: (r) => (
        <Can route={notificationsApi.removeRule}>
          <Button
            size="xs"
            color="red"
            variant="light"
            aria-label={`Remove rule ${r.id}`}
            onClick={() => remove.mutate(r.id, { onError: (e) => notifyError(e) })}
          >
            Remove
          </Button>
        </Can>
      ),
    },
  ];
  return (
    <Section title="Rules">
      <DataTable
        label="Notification rules"
        data={rules.data}
        columns={canRemove ? columns : columns.filter((c) => c.key !== 'actions')}
        rowKey={(r) => String(r.id)}
        loading={rules.isPending}
        pageSize={0}
        emptyText="No rules: nothing is sent yet."
        toolbar={
          <Can route={notificationsApi.addRule}>
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setAdding(true)}
              disabled={!channels.data?.length}
            >
              Add rule
            </Button>
          </Can>
        }
      />
      {adding && (
        <RuleDialog
          onClose={() => setAdding(false)}
          channels={(channels.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
        />
      )}
    </Section>
  );
}

function RuleDialog({ onClose, channels }: { onClose: () => void; channels: { value: string; label: string }[] }) {
  const add = useAddRule();
  const [event, setEvent] = useState<NotifyEvent>('container_died');
  const [picked, setPicked] = useState<string[]>([]);
  const [scope, setScope] = useState({ environment: '', app: '', project: '' });
  const [quiet, setQuiet] = useState<number>(10);
  const [restarts, setRestarts] = useState<number>(3);
  const [within, setWithin] = useState<number>(10);
  const save = () => {
    const s = Object.fromEntries(
      Object.entries(scope)
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
