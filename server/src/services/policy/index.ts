import { LOCAL_ENVIRONMENT, type ProtectedPath } from '@berth/contract';
import type { AppContext, Uses } from '../../context';
import { EnvironmentsRepo } from '../../db/environments-repo';
import { PoliciesRepo } from '../../db/policies-repo';
import { findSelfContainer } from '../self-update/self-container';
import { PolicyService, type PolicyGate } from './policy';
import { selfMountSources } from './protected-paths';

export type { Actor, PolicyGate } from './policy';
export { SYSTEM_ACTOR } from './policy';

/** Every environment's policy for non-admins (`local` and the stored ones; an unknown id is a 404). */
export function createPolicies(ctx: Uses<'db' | 'log'> & Pick<AppContext, 'config'>): PolicyService {
  const environments = new EnvironmentsRepo(ctx.db);
  return new PolicyService(
    new PoliciesRepo(ctx.db),
    ctx.config,
    (id) => id === LOCAL_ENVIRONMENT || environments.get(id) !== null,
    ctx.log,
  );
}

/**
 * An environment's gate. On `local`, links are resolved on this filesystem, and when Berth runs in
 * a container the host paths behind its own data and socket mounts are refused too (found once, in
 * the background; until then the paths inside the container and the defaults still hold).
 */
export function createPolicyGate(
  policies: PolicyService,
  id: string,
  ctx: Uses<'docker' | 'log', 'containerName' | 'hostname' | 'dataDir' | 'composeDir'>,
): PolicyGate {
  const local = id === LOCAL_ENVIRONMENT;
  let ownMounts: ProtectedPath[] = [];
  if (local)
    findSelfContainer(ctx.docker, { containerName: ctx.config.containerName, hostname: ctx.config.hostname })
      .then((self) => {
        if (self.container) ownMounts = selfMountSources(self.container, ctx.config);
      })
      .catch((err: unknown) => ctx.log.warn({ err }, "could not read Berth's own container for the policy"));
  return policies.gate(id, { local, extraProtected: () => ownMounts });
}
