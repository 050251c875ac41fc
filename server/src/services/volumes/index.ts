import type { Engine } from '../../docker/engine';
import { VolumesService } from './volumes';

/** One environment's volumes. */
export function createVolumes(docker: Engine): VolumesService {
  return new VolumesService(docker);
}
