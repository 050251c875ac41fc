import path from 'node:path';
import type { AppContext } from '../../context';
import { createEngine } from '../../docker/dockerode-engine';
import { EngineStatus } from '../../docker/engine-status';
import { writeCliMaterial } from './cli-material';
import { cliDockerHost, connectionOf, type ConnectionParts } from './stored';

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
  parts: ConnectionParts,
  onHostKey?: (key: string) => void,
): { ctx: AppContext; close(): void } {
  const log = base.log.child({ environment: id });
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
    remoteEngine: { value: parts.url.kind !== 'socket' },
  });
  engine.start();
  return {
    ctx,
    close: () => {
      engine.stop();
      material.remove();
    },
  };
}
