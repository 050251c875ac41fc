import path from 'node:path';
import type { AppContext } from '../../context';
import { createEngine } from '../../docker/dockerode-engine';
import { EngineStatus } from '../../docker/engine-status';
import { writeCliMaterial } from './cli-material';
import { cliDockerHost, connectionOf, type ConnectionParts } from './stored';

/** An agent environment's side of its tunnel (AgentHub.endpoint with the hub's subscriptions). */
export interface AgentEndpoint {
  socketPath: string;
  onChange(fn: () => void): () => void;
  onStats: NonNullable<AppContext['agentStats']>;
  close(): void;
}

/** A remote engine is asked every 3 s while it is away at first, then less often, at most every 8 s. */
const DOWN_INTERVAL_MS = 3000;
const MAX_DOWN_INTERVAL_MS = 8000;

/** Where an environment other than `local` keeps its compose projects. */
export const environmentComposeDir = (composeDir: string, id: string) => path.join(composeDir, '.environments', id);

/**
 * The context of one environment other than `local`: the shared context with its own engine (and
 * engine status watch), compose folder and compose CLI environment. Everything else (database,
 * compose CLI found at start, version) is read through from the base.
 */
export function environmentContext(
  base: AppContext,
  id: string,
  given: ConnectionParts,
  onHostKey?: (key: string) => void,
  agent?: AgentEndpoint,
): { ctx: AppContext; close(): void } {
  const log = base.log.child({ environment: id });
  // An agent environment is its tunnel's local socket, on another host all the same.
  const parts: ConnectionParts = agent
    ? { url: { ...given.url, kind: 'socket', socketPath: agent.socketPath }, tls: null, ssh: null }
    : given;
  const docker = createEngine({ ...base.config, connection: connectionOf(parts, onHostKey) });
  const address = cliDockerHost(parts.url, parts.ssh?.username ?? null);
  const engine = new EngineStatus(docker, log, address, DOWN_INTERVAL_MS, MAX_DOWN_INTERVAL_MS);
  const material = writeCliMaterial(base.config.cliEnv, connectionOf(parts), address);
  const config = {
    ...base.config,
    composeDir: environmentComposeDir(base.config.composeDir, id),
    cliEnv: Object.freeze(material.env),
  };
  const ctx: AppContext = Object.create(base, {
    docker: { value: docker },
    engine: { value: engine },
    config: { value: config },
    log: { value: log },
    remoteEngine: { value: given.url.kind !== 'socket' },
    ...(agent ? { agentStats: { value: agent.onStats } } : {}),
  });
  engine.start();
  // Checked at once when the agent connects or is lost: the status and event stream follow it.
  const offAgent = agent?.onChange(() => void engine.check());
  return {
    ctx,
    close: () => {
      offAgent?.();
      agent?.close();
      engine.stop();
      material.remove();
    },
  };
}
