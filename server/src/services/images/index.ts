import type { Uses } from '../../context';
import { ImagesService } from './images';

/** One environment's images (pulled with the environment's stored registry credentials). */
export function createImages(ctx: Uses<'docker' | 'registryAuth'>): ImagesService {
  return new ImagesService(ctx.docker, ctx.registryAuth);
}
