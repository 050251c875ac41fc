import { ActionIcon, Card, Group, Text, Title, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiKey } from '@berth/contract';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { apiKeysQuery, useRevokeApiKey } from '../api';
import { GenerateKeyDialog } from './GenerateKeyDialog';

const columns: Column<ApiKey>[] = [
  { key: 'key_name', header: 'Name', sortable: true },
  { key: 'created_at', header: 'Created Time', sortable: true, render: (k) => formatDate(k.created_at) },
  { key: 'last_used_at', header: 'Last Used', render: (k) => (k.last_used_at ? formatDate(k.last_used_at) : 'Never') },
];

/** User Info: the user's API keys, 5 per page, with generate and revoke. */
export function ApiKeysCard() {
  // Last Used changes whenever a key is used elsewhere: read again while the page is open.
  const keys = useQuery({ ...apiKeysQuery(), refetchInterval: 30_000, refetchOnWindowFocus: true });
  const revoke = useRevokeApiKey();
  const [generating, setGenerating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => notifySuccess(`API key '${revoking.key_name}' revoked.`),
      onSettled: () => setRevoking(null),
    });
  };

  return (
    <Card withBorder style={{ background: 'var(--berth-surface)' }}>
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          API keys
        </Title>
        <Tooltip label="Generate API Key">
          <ActionIcon variant="filled" aria-label="Generate API Key" onClick={() => setGenerating(true)}>
            <IconPlus size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      {keys.error ? (
        <Text c="red">{keys.error instanceof Error ? keys.error.message : String(keys.error)}</Text>
      ) : (
        <DataTable
          label="API Keys"
          data={keys.data}
          columns={columns}
          rowKey={(k) => String(k.id)}
          pageSize={5}
          pageSizeOptions={[5, 15, 0]}
          loading={keys.isLoading}
          emptyText="No API keys yet."
          rowMenu={(k) => (
            <Tooltip label="Revoke">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Revoke ${k.key_name}`}
                onClick={() => setRevoking(k)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        />
      )}
      <GenerateKeyDialog opened={generating} onClose={() => setGenerating(false)} />
      <ConfirmDialog
        opened={revoking !== null}
        title="Revoke the API key?"
        confirmLabel="Revoke"
        loading={revoke.isPending}
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(null)}
      >
        {`Programs using '${revoking?.key_name ?? ''}' will be refused from now on. This cannot be undone.`}
      </ConfirmDialog>
    </Card>
  );
}
