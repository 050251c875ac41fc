import { useState } from 'react';
import { Badge, Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { notificationsApi, type Rule } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { DataTable, type Column } from '../../../components/DataTable';
import { Section } from '../../../components/Section';
import { notifyError } from '../../../lib/notify';
import { useCan } from '../../../lib/session';
import { channelsQuery, rulesQuery, useRemoveRule } from '../api';
import { RuleDialog } from './RuleDialog';
import { conditionText, EVENT_LABELS } from '../model';

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
    { key: 'condition', header: 'Condition', render: conditionText, searchValue: conditionText },
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
