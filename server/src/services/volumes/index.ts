import type { Uses } from '../../context';
import type { PolicyGate } from '../policy/policy';
import { VolumeFilesService } from '../files/volume-files';
import { HelperContainers } from './helper-container';
import { VolumesService } from './volumes';

export { HELPER_LABEL, HELPER_MOUNT, releasing, type Helper, type HelperSpec } from './helper-container';
export type { HelperContainers } from './helper-container';

/** One environment's volumes, their files, and the helper containers that reach them (`local`: the engine Berth runs beside). */
export function createVolumes(
  ctx: Uses<'docker' | 'log', 'helperImage' | 'containerName' | 'hostname'>,
  policy: PolicyGate,
  local: boolean,
): { volumes: VolumesService; helpers: HelperContainers; volumeFiles: VolumeFilesService } {
  const helpers = new HelperContainers(ctx, policy, local);
  return {
    volumes: new VolumesService(ctx.docker),
    helpers,
    volumeFiles: new VolumeFilesService(ctx, helpers, policy),
  };
}
