import { useState } from 'react';
import { Badge, Button, Card, Code, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { revisionsApi, type AppRevision } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useEnvironment } from '../../../lib/environment';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { queryKeys } from '../../../lib/query-keys';
import { useCan } from '../../../lib/session';

/** The app's deploys and edits through the form, each with "Roll back to this" (recreated exactly, on its digest). */
export function AppRevisions({ name }: { name: string }) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  const canRollBack = useCan(revisionsApi.appRollback);
  const [target, setTarget] = useState<AppRevision | null>(null);
  const revisions = useQuery({
    queryKey: queryKeys.apps.revisions(env, name),
    queryFn: ({ signal }) => api(revisionsApi.appList, { env, params: { name }, signal }),
  });
  const rollback = useMutation({
    mutationFn: (rev: number) => api(revisionsApi.appRollback, { env, params: { name, rev } }),
    onSuccess: (r) => {
      if (r.revision.outcome === 'failed') notifyError(new Error(r.revision.detail ?? 'The rollback failed.'));
      else notifySuccess(`${name} has been rolled back to revision ${r.revision.rollback_of ?? ''}.`);
    },
    onError: (err) => notifyError(err),
    onSettled: () => {
      setTarget(null);
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps.all(env) });
    },
  });
  const list = revisions.data ?? [];
  if (list.length === 0) return null;
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="sm">
        Revisions
      </Title>
      <Table.ScrollContainer minWidth={640} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
        <Table aria-label="App revisions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Revision</Table.Th>
              <Table.Th>When</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>How</Table.Th>
              <Table.Th>Image</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((r) => (
              <Table.Tr key={r.rev}>
                <Table.Td>{r.rev}</Table.Td>
                <Table.Td>{new Date(r.created_at).toLocaleString()}</Table.Td>
                <Table.Td>{r.created_by}</Table.Td>
                <Table.Td>
                  {r.source}
                  {r.rollback_of !== null && ` to ${r.rollback_of}`}{' '}
                  {r.outcome === 'failed' && (
                    <Badge color="red" title={r.detail ?? undefined}>
                      failed
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Code>{r.digest ?? r.image}</Code>
                </Table.Td>
                <Table.Td>
                  {canRollBack && (
                    <Button size="xs" variant="light" color="orange" onClick={() => setTarget(r)}>
                      Roll back to this
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDialog
        opened={target !== null}
        title={`Roll ${name} back to revision ${target?.rev ?? ''}?`}
        confirmLabel="Roll back"
        loading={rollback.isPending}
        onConfirm={() => target && rollback.mutate(target.rev)}
        onCancel={() => setTarget(null)}
      >
        <Text size="sm">
          The container is recreated exactly as revision {target?.rev} ran it, on{' '}
          <Code>{target?.digest ?? target?.image}</Code>. The current one stays until the new one passes the health
          gate.
        </Text>
      </ConfirmDialog>
    </Card>
  );
}
