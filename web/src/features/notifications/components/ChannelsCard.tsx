import { useState } from 'react';
import { Badge, Button, Group } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { notificationsApi, type Channel } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DataTable, type Column } from '../../../components/DataTable';
import { Section } from '../../../components/Section';
import { notifyError, notifyPlain } from '../../../lib/notify';
import { useCan } from '../../../lib/session';
import { channelsQuery, useRemoveChannel, useTestChannel } from '../api';
import { ChannelDialog } from './ChannelDialog';

const target = (c: Channel) =>
  c.type === 'email'
    ? `${c.to ?? ''} via ${c.host ?? ''}`
    : c.type === 'ntfy'
      ? `${c.url ?? ''}/${c.topic ?? ''}`
      : (c.url ?? 'webhook URL (secret)');

/** Settings → Notifications: the channels, with add, test, edit and remove. */
export function ChannelsCard() {
  const channels = useQuery(channelsQuery());
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const [removing, setRemoving] = useState<Channel | null>(null);
  const remove = useRemoveChannel();
  const test = useTestChannel();

  const sendTest = (c: Channel) =>
    test.mutate(c.id, {
      onSuccess: (d) =>
        d.status === 'sent'
          ? notifyPlain(`Test message sent through ${c.name}.`)
          : notifyPlain(`Test through ${c.name} failed: ${d.error ?? 'unknown error'}`, 'red'),
      onError: (e) => notifyError(e),
    });

  const canManage = useCan(notificationsApi.editChannel);
  const columns: Column<Channel>[] = [
    { key: 'name', header: 'Name' },
    { key: 'type', header: 'Type', render: (c) => <Badge variant="light">{c.type}</Badge> },
    { key: 'target', header: 'Sends to', render: target, searchValue: target },
    {
      key: 'actions',
      header: 'Actions',
      noSearch: true,
      sortable: false,
      render: (c) => (
        <Group gap="xs" wrap="nowrap">
          <Can route={notificationsApi.testChannel}>
            <Button
              size="xs"
              variant="light"
              onClick={() => sendTest(c)}
              loading={test.isPending && test.variables === c.id}
              aria-label={`Test ${c.name}`}
            >
              Test
            </Button>
          </Can>
          <Can route={notificationsApi.editChannel}>
            <Button size="xs" variant="default" onClick={() => setEditing(c)} aria-label={`Edit ${c.name}`}>
              Edit
            </Button>
          </Can>
          <Can route={notificationsApi.removeChannel}>
            <Button
              size="xs"
              color="red"
              variant="light"
              onClick={() => setRemoving(c)}
              aria-label={`Remove ${c.name}`}
            >
              Remove
            </Button>
          </Can>
        </Group>
      ),
    },
  ];

  return (
    <Section title="Channels">
      <DataTable
        label="Notification channels"
        data={channels.data}
        columns={canManage ? columns : columns.filter((c) => c.key !== 'actions')}
        rowKey={(c) => String(c.id)}
        loading={channels.isPending}
        pageSize={0}
        emptyText="No channels yet."
        toolbar={
          <Can route={notificationsApi.addChannel}>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              Add channel
            </Button>
          </Can>
        }
      />
      {editing && <ChannelDialog channel={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={removing !== null}
        title={`Remove channel ${removing?.name ?? ''}?`}
        confirmLabel="Remove"
        loading={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removing && remove.mutate(removing.id, { onSuccess: () => setRemoving(null), onError: (e) => notifyError(e) })
        }
      >
        Rules that only use this channel are removed too.
      </ConfirmDialog>
    </Section>
  );
}
