import path from 'node:path';
import type { Uses } from '../../context';
import { AgentsRepo } from '../../db/agents-repo';
import { serverKeyFrom } from '../../lib/agent-auth';
import { deriveKey } from '../../lib/secret-box';
import { AgentHub } from './agent-hub';

/**
 * The agents' side of Berth: its agent key (derived from the signing key, so it survives restarts
 * and a pinned fingerprint stays valid) and the hub every agent environment's tunnel goes through.
 */
export function createAgents(ctx: Uses<'db' | 'log', 'dataDir'>, signingKey: Uint8Array): AgentHub {
  const server = serverKeyFrom(deriveKey(signingKey, 'agent-server-key'));
  return new AgentHub(new AgentsRepo(ctx.db), server, path.join(ctx.config.dataDir, 'agents'), ctx.log);
}
