import { useState } from 'react';
import { Button, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconBox, IconDatabase, IconPhoto, IconTopologyStar } from '@tabler/icons-react';
import type { PruneResource } from '@berth/contract';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { notifySuccess } from '../../../lib/notify';
import { pruneMessage, usePrune } from '../api';
import { PrunePreviewList, usePruneHasItems } from './PrunePreviewList';

const ACTIONS: { resource: PruneResource; label: string; what: string; icon: typeof IconPhoto; confirm: string }[] = [
  {
    resource: 'images',
    label: 'Prune Images',
    what: 'Dangling images: untagged and used by no container.',
    icon: IconPhoto,
    confirm: 'This will remove the dangling images below. They can only come back by pulling or building them again.',
  },
  {
    resource: 'networks',
    label: 'Prune Networks',
    what: 'User-defined networks with no running container attached.',
    icon: IconTopologyStar,
    confirm: 'This will remove the networks below. Containers that named them cannot start until they are made again.',
  },
  {
    resource: 'volumes',
    label: 'Prune Volumes',
    what: 'Every volume no container uses, named ones included, with its data.',
    icon: IconDatabase,
    confirm:
      'This will remove all volumes not used by any container, named ones included, with their data. Please make sure this is what you want to do before continuing.',
  },
  {
    resource: 'containers',
    label: 'Prune Containers',
    what: 'Every stopped container.',
    icon: IconBox,
    confirm: 'This will remove all stopped containers. Please make sure this is what you want to do before continuing.',
  },
];

/**
 * Settings → Prune: one button per kind; each asks first, showing what it would remove and the space
 * that frees (nothing runs on the first click), then gives the spec's result message.
 */
export function PrunePanel() {
  const prune = usePrune();
  const [confirming, setConfirming] = useState<(typeof ACTIONS)[number] | null>(null);
  const hasItems = usePruneHasItems(confirming?.resource ?? null);
  const [last, setLast] = useState<Partial<Record<PruneResource, string>>>({});

  const run = (resource: PruneResource) =>
    prune.mutate(resource, {
      onSuccess: (result) => {
        const message = pruneMessage(resource, result);
        setLast((l) => ({ ...l, [resource]: message }));
        notifySuccess(message);
      },
      onSettled: () => setConfirming(null),
    });

  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {ACTIONS.map((a) => (
          <Paper withBorder p="md" key={a.resource}>
            <Stack gap="xs" align="flex-start">
              <Button
                leftSection={<a.icon size={18} />}
                color={a.resource === 'images' ? undefined : 'red'}
                loading={prune.isPending && prune.variables === a.resource}
                disabled={prune.isPending && prune.variables !== a.resource}
                onClick={() => setConfirming(a)}
              >
                {a.label}
              </Button>
              <Text size="sm" c="dimmed">
                {a.what}
              </Text>
              {last[a.resource] && (
                <Text size="sm" data-testid={`prune-result-${a.resource}`}>
                  {last[a.resource]}
                </Text>
              )}
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
      <ConfirmDialog
        opened={confirming !== null}
        title={`${confirming?.label ?? 'Prune'}?`}
        confirmLabel="Prune"
        loading={prune.isPending}
        confirmDisabled={!hasItems}
        onConfirm={() => confirming && run(confirming.resource)}
        onCancel={() => setConfirming(null)}
      >
        {confirming && (
          <Stack gap="sm">
            <Text size="sm">{confirming.confirm}</Text>
            <PrunePreviewList resource={confirming.resource} />
          </Stack>
        )}
      </ConfirmDialog>
    </>
  );
}
