import { ActionIcon, Button, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface RowListProps {
  title: string;
  /** Singular noun for buttons and labels: 'port' → 'Add port', 'Remove port 2'. */
  noun: string;
  count: number;
  rowKey: (index: number) => string;
  renderRow: (index: number) => ReactNode;
  onAdd: () => void;
  onRemove: (index: number) => void;
  /** A rule about the list as a whole. */
  error?: string;
  hint?: ReactNode;
}

/** An editable list of rows (ports, volumes, env...) with add and remove buttons. */
export function RowList({ title, noun, count, rowKey, renderRow, onAdd, onRemove, error, hint }: RowListProps) {
  return (
    <Stack gap="xs" role="group" aria-label={title}>
      <Group justify="space-between">
        <Title order={4} size="h5">
          {title}
        </Title>
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={onAdd}>
          Add {noun}
        </Button>
      </Group>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
      {Array.from({ length: count }, (_, i) => (
        <Group key={rowKey(i)} align="flex-start" wrap="nowrap" gap="xs">
          <Group align="flex-start" gap="xs" style={{ flex: 1 }} grow preventGrowOverflow={false}>
            {renderRow(i)}
          </Group>
          <Tooltip label={`Remove ${noun}`}>
            <ActionIcon
              variant="subtle"
              color="red"
              mt={4}
              aria-label={`Remove ${noun} ${i + 1}`}
              onClick={() => onRemove(i)}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ))}
      {count === 0 && (
        <Text size="sm" c="dimmed">
          None.
        </Text>
      )}
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
