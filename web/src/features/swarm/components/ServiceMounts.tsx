import { ActionIcon, Button, Checkbox, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { MountRow } from '../form-model';

interface Props {
  mounts: MountRow[];
  onChange: (mounts: MountRow[]) => void;
  /** The error of a field path (`mounts.0.target`), the form's or the server's. */
  errorFor: (path: string) => string | undefined;
}

const TYPES = [
  { value: 'volume', label: 'Volume' },
  { value: 'bind', label: 'Bind' },
  { value: 'tmpfs', label: 'tmpfs' },
];

/** The service's mounts, one row each: type, source (volume name or host path), target, read-only. */
export function ServiceMounts({ mounts, onChange, errorFor }: Props) {
  const patch = (i: number, p: Partial<MountRow>) => onChange(mounts.map((m, n) => (n === i ? { ...m, ...p } : m)));
  const whole = errorFor('mounts');
  return (
    <Stack gap="xs">
      {mounts.length === 0 && (
        <Text size="sm" c="dimmed">
          No mounts.
        </Text>
      )}
      {mounts.map((m, i) => (
        <Group key={i} align="flex-start" gap="xs" wrap="nowrap">
          <Select
            aria-label={`Mount ${i + 1} type`}
            w={110}
            allowDeselect={false}
            data={TYPES}
            value={m.type}
            onChange={(v) => v && patch(i, { type: v as MountRow['type'] })}
          />
          <TextInput
            aria-label={`Mount ${i + 1} source`}
            style={{ flex: 1 }}
            disabled={m.type === 'tmpfs'}
            placeholder={m.type === 'bind' ? '/srv/data' : m.type === 'volume' ? 'volume name (blank: anonymous)' : ''}
            value={m.type === 'tmpfs' ? '' : m.source}
            error={errorFor(`mounts.${i}.source`)}
            onChange={(e) => patch(i, { source: e.currentTarget.value })}
          />
          <TextInput
            aria-label={`Mount ${i + 1} target`}
            style={{ flex: 1 }}
            placeholder="/data"
            value={m.target}
            error={errorFor(`mounts.${i}.target`)}
            onChange={(e) => patch(i, { target: e.currentTarget.value })}
          />
          <Checkbox
            mt={8}
            label="Read-only"
            checked={m.readOnly}
            disabled={m.type === 'tmpfs'}
            onChange={(e) => patch(i, { readOnly: e.currentTarget.checked })}
          />
          <ActionIcon
            mt={4}
            variant="subtle"
            color="red"
            aria-label={`Remove mount ${i + 1}`}
            onClick={() => onChange(mounts.filter((_, n) => n !== i))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {whole && (
        <Text size="sm" c="red">
          {whole}
        </Text>
      )}
      <Group>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconPlus size={14} />}
          onClick={() => onChange([...mounts, { type: 'volume', source: '', target: '', readOnly: false }])}
        >
          Add mount
        </Button>
      </Group>
    </Stack>
  );
}
