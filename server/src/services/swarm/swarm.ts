import type { NodeUpdateBody, SwarmNode, SwarmSummary } from '@berth/contract';
import type { z } from 'zod';
import type { Engine } from '../../docker/engine';
import type { RawNode } from '../../docker/swarm-engine';

const NS = 1e9;

function toNode(n: RawNode): SwarmNode {
  return {
    id: n.ID,
    version: n.Version.Index,
    hostname: n.Description?.Hostname ?? n.Spec.Name ?? n.ID,
    role: n.Spec.Role,
    availability: n.Spec.Availability,
    state: n.Status?.State ?? 'unknown',
    addr: n.ManagerStatus?.Addr ?? n.Status?.Addr ?? '',
    leader: n.ManagerStatus?.Leader ?? false,
    engineVersion: n.Description?.Engine?.EngineVersion ?? '',
    labels: n.Spec.Labels ?? {},
    nanoCpus: n.Description?.Resources?.NanoCPUs ?? 0,
    memoryBytes: n.Description?.Resources?.MemoryBytes ?? 0,
  };
}

/**
 * The swarm itself and its nodes. Every call needs a swarm manager: the engine refuses others,
 * which the facade turns into NotInSwarmError (409 not_in_swarm).
 */
export class SwarmClusterService {
  constructor(private readonly docker: Engine) {}

  /** The cluster's settings; join tokens and the CA are left out on purpose (they are secrets). */
  async info(): Promise<SwarmSummary> {
    const [s, info] = await Promise.all([this.docker.swarm.inspect(), this.docker.info()]);
    const local = (info.Swarm ?? {}) as { NodeID?: string; NodeAddr?: string; Managers?: number; Nodes?: number };
    const spec = s.Spec;
    return {
      id: s.ID,
      createdAt: s.CreatedAt,
      updatedAt: s.UpdatedAt,
      nodeId: local.NodeID ?? '',
      nodeAddr: local.NodeAddr ?? '',
      managers: local.Managers ?? 0,
      nodes: local.Nodes ?? 0,
      defaultAddrPool: s.DefaultAddrPool ?? [],
      dataPathPort: s.DataPathPort ?? null,
      raft: {
        snapshotInterval: spec.Raft?.SnapshotInterval ?? 0,
        electionTick: spec.Raft?.ElectionTick ?? 0,
        heartbeatTick: spec.Raft?.HeartbeatTick ?? 0,
        logEntriesForSlowFollowers: spec.Raft?.LogEntriesForSlowFollowers ?? 0,
      },
      dispatcherHeartbeatSeconds: (spec.Dispatcher?.HeartbeatPeriod ?? 0) / NS,
      taskHistoryRetentionLimit: spec.Orchestration?.TaskHistoryRetentionLimit ?? 0,
      autoLockManagers: spec.EncryptionConfig?.AutoLockManagers ?? false,
    };
  }

  async nodes(): Promise<SwarmNode[]> {
    const nodes = await this.docker.swarm.listNodes();
    return nodes.map(toNode).sort((a, b) => a.hostname.localeCompare(b.hostname));
  }

  /** Applies the given fields at the node's current version (read just before). */
  async updateNode(ref: string, body: z.output<typeof NodeUpdateBody>): Promise<SwarmNode> {
    const node = await this.docker.swarm.inspectNode(ref);
    await this.docker.swarm.updateNode(node.ID, node.Version.Index, {
      ...node.Spec,
      ...(body.availability ? { Availability: body.availability } : {}),
      ...(body.role ? { Role: body.role } : {}),
      ...(body.labels ? { Labels: body.labels } : {}),
    });
    return toNode(await this.docker.swarm.inspectNode(node.ID));
  }
}
