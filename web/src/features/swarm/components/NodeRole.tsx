import { useState } from 'react';
import { Select } from '@mantine/core';
import { swarmApi, type SwarmNode } from '@berth/contract';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { notifySuccess } from '../../../lib/notify';
import { useCan } from '../../../lib/session';
import { useNodes, useUpdateNode } from '../api';

type Role = SwarmNode['role'];

/** A node's role, changed after a confirmation (promoting or demoting a manager changes the raft quorum). */
export function NodeRole({ node }: { node: SwarmNode }) {
  const update = useUpdateNode();
  const canUpdate = useCan(swarmApi.updateNode);
  // The engine refuses to demote the last manager: the choice is not offered.
  const managers = (useNodes().data ?? []).filter((n) => n.role === 'manager').length;
  const lastManager = node.role === 'manager' && managers <= 1;
  const [wanted, setWanted] = useState<Role | null>(null);
  const promote = wanted === 'manager';
  return (
    <>
      <Select
        aria-label={`Role of ${node.hostname}`}
        size="xs"
        w={150}
        allowDeselect={false}
        data={[
          { value: 'manager', label: node.leader ? 'manager (leader)' : 'manager' },
          { value: 'worker', label: lastManager ? 'worker (not the last manager)' : 'worker', disabled: lastManager },
        ]}
        value={node.role}
        disabled={update.isPending || !canUpdate}
        onChange={(v) => v && v !== node.role && setWanted(v as Role)}
      />
      <ConfirmDialog
        opened={wanted !== null}
        title={promote ? `Promote ${node.hostname} to manager?` : `Demote ${node.hostname} to worker?`}
        confirmLabel={promote ? 'Promote' : 'Demote'}
        loading={update.isPending}
        onConfirm={() =>
          wanted &&
          update.mutate(
            { id: node.id, body: { role: wanted } },
            { onSuccess: (n) => notifySuccess(`${n.hostname} is now a ${n.role}.`), onSettled: () => setWanted(null) },
          )
        }
        onCancel={() => setWanted(null)}
      >
        {promote
          ? 'A manager takes part in the raft consensus and can run the swarm; keep an odd number of managers.'
          : 'A worker only runs tasks. The swarm refuses to demote its last manager; losing managers can cost the quorum.'}
      </ConfirmDialog>
    </>
  );
}
