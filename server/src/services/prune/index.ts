import type { Engine } from '../../docker/engine';
import { PruneService } from './prune';

/** One environment's prune of unused images, containers, networks and volumes. */
export function createPrune(docker: Engine): PruneService {
  return new PruneService(docker);
}
