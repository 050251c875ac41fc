import path from 'node:path';
import type { Uses } from '../../context';
import type { PolicyGate } from '../policy';
import { SwarmClusterService } from './swarm';
import { SwarmObjectsService } from './swarm-objects';
import { SwarmServicesService } from './swarm-services';
import { SwarmStacksService } from './swarm-stacks';

/** One environment's swarm management (the engine must be a manager); its stack files under `<dataDir>/stacks/<environment>`. */
export function createSwarm(
  ctx: Uses<'docker' | 'log' | 'onClose' | 'registryAuth', 'cliEnv' | 'composeTimeoutMs' | 'dataDir'>,
  environment: string,
  policy: PolicyGate,
  /** Told of a stack removed (its git source is forgotten). */
  onRemoved: (name: string) => void = () => {},
) {
  return {
    cluster: new SwarmClusterService(ctx.docker),
    services: new SwarmServicesService(ctx.docker, ctx.log, policy, ctx.registryAuth),
    stacks: new SwarmStacksService(
      ctx,
      ctx.docker,
      path.join(ctx.config.dataDir, 'stacks', environment),
      policy,
      onRemoved,
    ),
    configs: new SwarmObjectsService(ctx.docker, 'config'),
    secrets: new SwarmObjectsService(ctx.docker, 'secret'),
  };
}
