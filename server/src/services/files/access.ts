import { seesEnvValues } from '@berth/contract';
import type { Actor, PolicyGate } from '../policy/policy';

/**
 * Files hold what environment values do (passwords in configuration files, keys): a role that
 * may not read environment values (a viewer) lists, reads and downloads files only where the
 * environment's policy allows it (`viewer_files`); 403 policy_denied otherwise. `exists`, when
 * given, runs first for such a role, so an unknown app or volume is a 404 to everyone alike.
 */
export async function checkViewerReads(
  policy: PolicyGate,
  actor: Actor,
  path: string,
  exists?: () => Promise<unknown>,
): Promise<void> {
  if (seesEnvValues(actor.role)) return;
  await exists?.();
  await policy.check(actor, [{ rule: 'viewer_files', value: path, field: 'path' }]);
}
