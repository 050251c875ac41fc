import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, Modal, Stack, TextInput, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { swarmApi, type SwarmNode } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { useUpdateNode } from '../api';

type Row = { key: string; value: string };

/** A node's labels as badges, with a dialog to add, change and remove them (used by placement constraints). */
export function NodeLabels({ node }: { node: SwarmNode }) {
  const [editing, setEditing] = useState(false);
  const entries = Object.entries(node.labels);
  return (
    <Group gap={4}>
      {entries.map(([k, v]) => (
        <Badge key={k} variant="light" tt="none">{`${k}=${v}`}</Badge>
      ))}
      <Can route={swarmApi.updateNode}>
        <Tooltip label="Edit labels">
          <ActionIcon
            size="sm"
            variant="subtle"
            aria-label={`Edit labels of ${node.hostname}`}
            onClick={() => setEditing(true)}
          >
            <IconPencil size={14} />
          </ActionIcon>
        </Tooltip>
      </Can>
      <Modal opened={editing} onClose={() => setEditing(false)} title={`Labels of ${node.hostname}`} size="lg">
        {editing && <LabelsForm node={node} onDone={() => setEditing(false)} />}
      </Modal>
    </Group>
  );
}

function LabelsForm({ node, onDone }: { node: SwarmNode; onDone: () => void }) {
  const update = useUpdateNode({ notifyError: false });
  const [rows, setRows] = useState<Row[]>(() => Object.entries(node.labels).map(([key, value]) => ({ key, value })));
  const patch = (i: number, p: Partial<Row>) => setRows((rs) => rs.map((r, n) => (n === i ? { ...r, ...p } : r)));
  const keys = rows.map((r) => r.key.trim());
  const keyError = (i: number) =>
    !keys[i] ? 'A label needs a name.' : keys.indexOf(keys[i]!) !== i ? 'This name is used twice.' : undefined;
  const valid = rows.every((_, i) => !keyError(i));
  const save = () =>
    update.mutate(
      { id: node.id, body: { labels: Object.fromEntries(rows.map((r) => [r.key.trim(), r.value])) } },
      {
        onSuccess: (n) => {
          notifySuccess(`Labels of ${n.hostname} saved.`);
          onDone();
        },
      },
    );
  return (
    <Stack gap="xs">
      {rows.map((r, i) => (
        <Group key={i} align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            aria-label={`Label ${i + 1} name`}
            placeholder="zone"
            style={{ flex: 1 }}
            value={r.key}
            error={keyError(i)}
            onChange={(e) => patch(i, { key: e.currentTarget.value })}
          />
          <TextInput
            aria-label={`Label ${i + 1} value`}
            placeholder="eu-1"
            style={{ flex: 1 }}
            value={r.value}
            onChange={(e) => patch(i, { value: e.currentTarget.value })}
          />
          <ActionIcon
            mt={4}
            variant="subtle"
            color="red"
            aria-label={`Remove label ${i + 1}`}
            onClick={() => setRows((rs) => rs.filter((_, n) => n !== i))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconPlus size={14} />}
          onClick={() => setRows((rs) => [...rs, { key: '', value: '' }])}
        >
          Add label
        </Button>
      </Group>
      {update.error && (
        <Alert color="red" title="The labels were not saved">
          {errorMessage(update.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={save} loading={update.isPending} disabled={!valid}>
          Save labels
        </Button>
      </Group>
    </Stack>
  );
}
