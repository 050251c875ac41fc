import { parseImageReference, type ImageDetail, type ImageSummary, type PullProgress } from '@berth/contract';
import type { Engine, RegistryAuth } from '../../docker/engine';
import { inspectImage, listImages, removeImage, startPull, untagImage, type RunningPull } from './engine-images';
import { resourceUsage, type ResourceUsage } from '../apps/resource-usage';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';

/** `nginx`, `docker.io/library/nginx:latest` and `nginx:latest` are one tag; a digest or an ID names none. */
function tagKey(reference: string): string | null {
  const ref = parseImageReference(reference);
  if ('error' in ref || ref.digest) return null;
  const hub = ref.domain === null || ref.domain === 'docker.io' || ref.domain === 'index.docker.io';
  const path = hub ? ref.path.replace(/^library\//, '') : `${ref.domain}/${ref.path}`;
  return `${path}:${ref.tag ?? 'latest'}`;
}

/** How many containers use the image, and which of its tags they were made from (in the image's tag order). */
function usageOf(image: { Id: string; RepoTags: string[] }, usage: ResourceUsage) {
  const used = new Set([...(usage.imageRefs.get(image.Id) ?? [])].map(tagKey));
  return { inUse: usage.images.get(image.Id) ?? 0, usedTags: image.RepoTags.filter((t) => used.has(tagKey(t))) };
}

export class ImagesService {
  constructor(
    private readonly docker: Engine,
    /** The stored credential for an image reference (ctx.registryAuth), or undefined. */
    private readonly registryAuth: (image: string) => RegistryAuth | undefined = () => undefined,
  ) {}

  async list(): Promise<ImageSummary[]> {
    const [images, usage] = await Promise.all([listImages(this.docker), resourceUsage(this.docker)]);
    return images.map((i) => ({ ...i, ...usageOf(i, usage) }));
  }

  async get(id: string): Promise<ImageDetail> {
    const [image, usage] = await Promise.all([inspectImage(this.docker, id), resourceUsage(this.docker)]);
    return { ...image, ...usageOf(image, usage) };
  }

  /** Starts a pull; engine refusals before any progress reject here (so callers can still answer plain JSON). */
  async startPull(reference: string, signal?: AbortSignal): Promise<RunningPull> {
    const ref = parseImageReference(reference);
    if ('error' in ref) throw new ValidationError(ref.error, [{ field: 'image', message: ref.error }]);
    return startPull(this.docker, ref, { signal, auth: this.registryAuth(reference) });
  }

  /** Pulls and returns the image list (the shape the original product answered with). */
  async pull(reference: string, onProgress?: (p: PullProgress) => void): Promise<ImageSummary[]> {
    const running = await this.startPull(reference);
    await running.follow(onProgress);
    return this.list();
  }

  /** Pulls the image's first tag again and returns what that tag names now (possibly a newer image). */
  async repull(id: string): Promise<ImageDetail> {
    const before = await inspectImage(this.docker, id);
    const tag = before.RepoTags[0];
    if (!tag) throw new ConflictError('This image has no tag to pull again; pull it by reference instead.');
    const running = await this.startPull(tag);
    await running.follow();
    return this.get(tag);
  }

  /**
   * Removes the image with all its tags and returns it as it was. An image a container uses
   * (running or stopped) stays: the engine's refusal (409) explains which container. `force`
   * removes what `id` names even when stopped containers use it (the engine keeps a running one's image).
   */
  async remove(id: string, force = false): Promise<ImageDetail> {
    const image = await this.get(id);
    if (force) {
      // By what the caller named: a tag forced away leaves the image's other tags alone.
      await removeImage(this.docker, id, true);
      return image;
    }
    try {
      await removeImage(this.docker, id, false);
    } catch (err) {
      // Unforced removal also refuses an image with several tags; force only when no container uses it.
      if (!(err instanceof ConflictError)) throw err;
      const usage = await resourceUsage(this.docker);
      if ((usage.images.get(image.Id) ?? 0) > 0) throw new ConflictError(err.message);
      await removeImage(this.docker, image.Id, true);
    }
    return image;
  }

  /** Removes one tag of a multi-tagged image and returns the image as it is now (with its other tags). */
  async untag(id: string, tag: string): Promise<ImageDetail> {
    const image = await this.get(id);
    if (!image.RepoTags.includes(tag)) throw new NotFoundError('image tag', tag);
    if (image.RepoTags.length === 1)
      throw new ConflictError(`${tag} is the only tag of this image; delete the image instead.`);
    await untagImage(this.docker, tag);
    return this.get(image.Id);
  }
}
