import type { Engine } from '../../docker/engine';
import { ImagesService } from './images';

/** One environment's images. */
export function createImages(docker: Engine): ImagesService {
  return new ImagesService(docker);
}
