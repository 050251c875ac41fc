import type { Uses } from '../../context';
import type { PolicyGate } from '../policy';
import { ImagesService } from './images';
import { ImageTransferService, type GitContexts } from './image-transfer';

/** One environment's images (pulled with the environment's stored registry credentials). */
export function createImages(ctx: Uses<'docker' | 'registryAuth'>): ImagesService {
  return new ImagesService(ctx.docker, ctx.registryAuth);
}

/** One environment's image builds (from git through `git`'s copies), tags, pushes, exports and loads. */
export function createImageTransfer(
  ctx: Uses<'docker' | 'registryAuth'>,
  policy: PolicyGate,
  git: GitContexts,
): ImageTransferService {
  return new ImageTransferService(ctx.docker, policy, ctx.registryAuth, git);
}
