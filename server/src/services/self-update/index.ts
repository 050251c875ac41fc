import type { Uses } from '../../context';
import { SelfUpdateService } from './self-update';

/** Berth's update of its own container, through an updater container (self-update-main.ts beside this). */
export function createSelfUpdate(
  ctx: Uses<'docker' | 'log' | 'registryAuth', 'containerName' | 'dataDir' | 'hostname'>,
): SelfUpdateService {
  return new SelfUpdateService(ctx);
}
