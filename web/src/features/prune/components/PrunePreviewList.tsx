import { Alert, Box, Group, Loader, Stack, Table, Text } from '@mantine/core';
import type { PruneResource } from '@berth/contract';
import { formatBytes } from '../../../lib/format';
import { countOf, usePrunePreview } from '../api';

/** Past this many rows the list says how many more there are instead of growing the dialog. */
const SHOWN = 50;

/** What the prune of `resource` would remove now and the space it would free, read right before asking. */
export function PrunePreviewList({ resource }: { resource: PruneResource }) {
  const preview = usePrunePreview(resource);
  if (preview.isPending)
    return (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm">Looking for what this would remove…</Text>
      </Group>
    );
  if (preview.isError)
    return (
      <Alert color="red" title="Cannot tell what this would remove">
        {preview.error.message}
      </Alert>
    );
  const { items, SpaceReclaimable } = preview.data;
  if (items.length === 0)
    return (
      <Text size="sm" data-testid="prune-preview-summary">
        Nothing to remove right now.
      </Text>
    );
  const frees = resource === 'networks' ? '' : ` and free about ${formatBytes(SpaceReclaimable)}`;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500} data-testid="prune-preview-summary">
        This will remove {countOf(resource, items.length)}
        {frees}:
      </Text>
      {/* Focusable so a keyboard can scroll a long list (axe: scrollable-region-focusable). */}
      <Box mah={240} style={{ overflowY: 'auto' }} tabIndex={0} aria-label={`The ${countOf(resource, items.length)}`}>
        <Table striped withTableBorder data-testid="prune-preview">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              {resource !== 'networks' && <Table.Th ta="right">Size</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.slice(0, SHOWN).map((i) => (
              <Table.Tr key={i.id}>
                <Table.Td style={{ wordBreak: 'break-all' }}>{i.name}</Table.Td>
                {resource !== 'networks' && <Table.Td ta="right">{formatBytes(i.size)}</Table.Td>}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Box>
      {items.length > SHOWN && (
        <Text size="sm" c="dimmed">
          and {items.length - SHOWN} more.
        </Text>
      )}
    </Stack>
  );
}

/** Whether the preview found something to remove (the confirm button waits for it). */
export function usePruneHasItems(resource: PruneResource | null): boolean {
  const preview = usePrunePreview(resource);
  return (preview.data?.items.length ?? 0) > 0;
}
