import type { Uses } from '../../context';
import type { PolicyGate } from '../policy/policy';
import { HelperContainers } from './helper-container';
import { VolumesService } from './volumes';

export { HELPER_LABEL, HELPER_MOUNT, releasing, type Helper, type HelperSpec } from './helper-container';
export type { HelperContainers } from './helper-container';

/** One environment's volumes, and the helper containers that reach their files (`local`: the engine Berth runs beside). */
export function createVolumes(
  ctx: Uses<'docker' | 'log', 'helperImage' | 'containerName' | 'hostname'>,
  policy: PolicyGate,
  local: boolean,
): { volumes: VolumesService; helpers: HelperContainers } {
  return { volumes: new VolumesService(ctx.docker), helpers: new HelperContainers(ctx, policy, local) };
}
