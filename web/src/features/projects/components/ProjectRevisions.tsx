import { useState } from 'react';
import { Alert, Badge, Button, Card, Code, Group, Loader, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { revisionsApi, type ProjectPlan, type ProjectRevision, type ProjectRevisionDiff } from '@berth/contract';
import { useCan } from '../../../lib/session';
import { errorMessage, notifyError, notifySuccess } from '../../../lib/notify';
import { useProjectRevisions, useProjectRollback, useRevisionDiff } from '../api/revisions';
import { sideBySide } from '../revision-diff';
import { UpPlanDialog } from './UpPlanDialog';

const COLORS = { same: undefined, removed: 'red.1', added: 'green.1', changed: 'yellow.1' } as const;

const shortDigest = (d: string | null) =>
  d ? `…${d.slice(d.indexOf('@sha256:') + 8, d.indexOf('@sha256:') + 20)}` : '—';

function SideBySide({ diff }: { diff: ProjectRevisionDiff }) {
  const rows = sideBySide(diff.from.content, diff.to.content);
  return (
    <ScrollArea.Autosize mah={480}>
      <Table withColumnBorders fz="xs" ff="monospace" aria-label="Compose file diff">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="50%">Revision {diff.from.rev}</Table.Th>
            <Table.Th w="50%">Revision {diff.to.rev}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            <Table.Tr key={i} data-kind={r.kind}>
              <Table.Td bg={r.left === null ? undefined : COLORS[r.kind]} style={{ whiteSpace: 'pre' }}>
                {r.left ?? ''}
              </Table.Td>
              <Table.Td bg={r.right === null ? undefined : COLORS[r.kind]} style={{ whiteSpace: 'pre' }}>
                {r.right ?? ''}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

function DiffCard({ name, pair }: { name: string; pair: [number, number] }) {
  const diff = useRevisionDiff(name, pair);
  if (diff.isLoading) return <Loader size="sm" />;
  if (diff.error) return <Alert color="red">{errorMessage(diff.error)}</Alert>;
  if (!diff.data) return null;
  const { env, images } = diff.data;
  const envChanges = [
    ...env.added.map((k) => `${k} added`),
    ...env.removed.map((k) => `${k} removed`),
    ...env.changed.map((k) => `${k} changed`),
  ];
  return (
    <Card withBorder>
      <Title order={4} size="h5" mb="sm">
        Revision {pair[0]} → revision {pair[1]}
      </Title>
      <Stack gap="sm">
        <SideBySide diff={diff.data} />
        <Text size="sm">
          <b>.env:</b> {envChanges.length ? envChanges.join(', ') : 'unchanged'}
          {!diff.data.to.env_values && envChanges.length > 0 && ' (values are shown to admins only)'}
        </Text>
        <Text size="sm" component="div">
          <b>Images:</b>{' '}
          {images.length === 0
            ? 'unchanged'
            : images.map((i) => (
                <div key={i.service}>
                  {i.service}: <Code>{i.from?.image ?? '—'}</Code> {shortDigest(i.from?.digest ?? null)} →{' '}
                  <Code>{i.to?.image ?? '—'}</Code> {shortDigest(i.to?.digest ?? null)}
                </div>
              ))}
        </Text>
      </Stack>
    </Card>
  );
}

/** The project's Revisions tab: each recorded deploy, a side-by-side diff with the one before, and Roll back (the plan first). */
export function ProjectRevisions({ name }: { name: string }) {
  const revisions = useProjectRevisions(name);
  const rollback = useProjectRollback(name);
  const canRollBack = useCan(revisionsApi.projectRollback);
  const [pair, setPair] = useState<[number, number] | null>(null);
  const [pending, setPending] = useState<{ rev: number; plan: ProjectPlan } | null>(null);
  const list = revisions.data ?? [];

  const askRollback = (rev: number) =>
    rollback.mutate(
      { rev, dry_run: true },
      { onSuccess: (r) => setPending({ rev, plan: r.plan }), onError: (err) => notifyError(err) },
    );
  const confirm = () => {
    if (!pending) return;
    rollback.mutate(
      { rev: pending.rev, dry_run: false },
      {
        onSuccess: (r) => {
          setPending(null);
          void revisions.refetch();
          if (r.revision?.outcome === 'failed') notifyError(new Error(r.revision.detail ?? 'The rollback failed.'));
          else notifySuccess(`${name} has been rolled back to revision ${pending.rev}.`);
        },
        onError: (err) => {
          setPending(null);
          void revisions.refetch();
          notifyError(err);
        },
      },
    );
  };
  const previous = (r: ProjectRevision) => list.find((x) => x.rev < r.rev);

  if (revisions.isLoading) return <Loader size="sm" />;
  if (revisions.error) return <Alert color="red">{errorMessage(revisions.error)}</Alert>;
  return (
    <Stack>
      <Card withBorder>
        {list.length === 0 ? (
          <Text c="dimmed">No revisions yet: each up through Berth records one.</Text>
        ) : (
          <Table.ScrollContainer minWidth={640} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
            <Table aria-label="Revisions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Revision</Table.Th>
                  <Table.Th>When</Table.Th>
                  <Table.Th>By</Table.Th>
                  <Table.Th>How</Table.Th>
                  <Table.Th>Outcome</Table.Th>
                  <Table.Th>Images</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((r) => {
                  const before = previous(r);
                  return (
                    <Table.Tr key={r.rev}>
                      <Table.Td>
                        {r.rev}
                        {r.commit && <Code ml="xs">{r.commit.slice(0, 10)}</Code>}
                      </Table.Td>
                      <Table.Td>{new Date(r.created_at).toLocaleString()}</Table.Td>
                      <Table.Td>{r.created_by}</Table.Td>
                      <Table.Td>
                        {r.source}
                        {r.rollback_of !== null && ` to ${r.rollback_of}`}
                      </Table.Td>
                      <Table.Td>
                        <Badge color={r.outcome === 'success' ? 'green' : 'red'} title={r.detail ?? undefined}>
                          {r.outcome}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        {r.images.map((i) => (
                          <Text key={i.service} size="xs">
                            {i.service}: {i.image} {shortDigest(i.digest)}
                          </Text>
                        ))}
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          {before && (
                            <Button size="xs" variant="default" onClick={() => setPair([before.rev, r.rev])}>
                              Diff
                            </Button>
                          )}
                          {canRollBack && (
                            <Button
                              size="xs"
                              variant="light"
                              color="orange"
                              loading={rollback.isPending && rollback.variables?.rev === r.rev}
                              onClick={() => askRollback(r.rev)}
                            >
                              Roll back
                            </Button>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {pair && <DiffCard name={name} pair={pair} />}
      <UpPlanDialog
        name={name}
        plan={pending?.plan ?? null}
        title={`Roll ${name} back to revision ${pending?.rev ?? ''}?`}
        confirmLabel="Roll back"
        loading={rollback.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      >
        <Text size="sm">
          The revision&apos;s compose file and .env are written back, each service is pinned to the image digest it ran,
          and the health gate is waited on. The result is recorded as a new revision.
        </Text>
      </UpPlanDialog>
    </Stack>
  );
}
