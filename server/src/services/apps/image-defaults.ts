import type { FastifyBaseLogger } from 'fastify';
import type { Engine } from '../../docker/engine';
import { inspectImage } from '../images/engine-images';
import type { ImageDefaults } from './containers';

/**
 * What an image gave a container by default (so a recreate copies only what was set on the
 * container); null when that image is gone (then everything is copied).
 */
export async function imageDefaults(
  docker: Engine,
  imageId: string,
  log: Pick<FastifyBaseLogger, 'info'>,
): Promise<ImageDefaults | null> {
  try {
    const image = await inspectImage(docker, imageId);
    return (image as { Config?: ImageDefaults }).Config ?? null;
  } catch (err) {
    log.info({ err, image: imageId }, 'old image not readable; copying the whole container configuration');
    return null;
  }
}
