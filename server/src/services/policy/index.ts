import { LOCAL_ENVIRONMENT } from '@berth/contract';
import type { AppContext, Uses } from '../../context';
import { EnvironmentsRepo } from '../../db/environments-repo';
import { PoliciesRepo } from '../../db/policies-repo';
import { PolicyService, type PolicyGate } from './policy';
import { SelfMounts } from './self-mounts';

export type { Actor, PolicyGate } from './policy';
export { SYSTEM_ACTOR } from './policy';

/**
 * Every environment's policy for non-admins (`local` and the stored ones; an unknown id is a 404).
 * On `local`, when Berth runs in a container, what that container mounts (the host paths behind
 * its data and socket, its named volumes) and the container itself are refused too.
 */
export function createPolicies(ctx: Uses<'db' | 'log' | 'docker'> & Pick<AppContext, 'config'>): PolicyService {
  const environments = new EnvironmentsRepo(ctx.db);
  const self = new SelfMounts(ctx.docker, ctx.config, ctx.log);
  return new PolicyService(
    new PoliciesRepo(ctx.db),
    ctx.config,
    (id) => id === LOCAL_ENVIRONMENT || environments.get(id) !== null,
    ctx.log,
    () => self.get(),
  );
}

/** An environment's gate (on `local`, links are resolved on this filesystem and Berth's own mounts are known). */
export function createPolicyGate(policies: PolicyService, id: string): PolicyGate {
  return policies.gate(id, id === LOCAL_ENVIRONMENT);
}
