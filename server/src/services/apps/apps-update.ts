import { ErrorCode, type App, type AppUpdateCheck, type RevisionSource } from '@berth/contract';
import type { Uses } from '../../context';
import { appFromInspect, recreateSpec } from './containers';
import { imageDefaults } from './image-defaults';
import { checkImageUpdate, pullImage } from '../images/images-update';
import { restoreTag } from '../images/engine-images';
import type { GateVerdict } from './health-gate';
import { replaceContainer, replaceContainerGated } from './replace';
import { findSelfContainer } from '../self-update/self-container';
import { bareName, IMAGE_ID } from '../../docker/names';
import { AppError, ConflictError, ValidationError } from '../../errors';
import type { AppsRuntime } from './apps-runtime';
import type { AppsService } from './apps';

/** A pull that reports nothing for this long is stopped. */
const PULL_IDLE_MS = 5 * 60_000;

/** Where an app's changes are kept as revisions (services/revisions/app-revisions.ts), so each can be rolled back to. */
export interface AppRevisionRecorder {
  recordCurrent(name: string, meta: { by: string; source: RevisionSource; outcome: 'success' }): Promise<unknown>;
  renamed(from: string, to: string, by: string): Promise<void>;
}

/** Who replaces an app and why; with a `gate`, the started replacement must pass it. */
export interface ReplaceOptions {
  by: string;
  source: Extract<RevisionSource, 'update' | 'auto-update'>;
  gate?: (id: string) => Promise<GateVerdict>;
  /** An update by version: the same repository, a newer tag, run instead of the app's own reference. */
  image?: string;
}

/** Update check (registry digest vs. local) and one-click update (pull, then recreate in place). */
export class AppUpdateService {
  private readonly busy = new Set<string>();

  constructor(
    private readonly ctx: Uses<'docker' | 'log' | 'registryAuth' | 'registryTags', 'containerName' | 'hostname'>,
    private readonly apps: AppsService,
    private readonly rt: AppsRuntime,
    private readonly revisions: AppRevisionRecorder | null = null,
  ) {}

  /** `tagsMaxAgeMs`: how old a kept tag list may be (a few minutes unless an auto-update run asks for fresher). */
  async check(name: string, tagsMaxAgeMs?: number): Promise<AppUpdateCheck> {
    const info = await this.apps.inspect(name);
    const res = await checkImageUpdate(this.ctx.docker, info.Config.Image, {
      imageId: info.Image,
      auth: this.ctx.registryAuth?.(info.Config.Image),
      tags: this.ctx.registryTags,
      ...(tagsMaxAgeMs !== undefined ? { tagsMaxAgeMs } : {}),
    });
    this.rt.updatable.set(info.Id, res.isUpdatable);
    const { image, remoteDigest, localDigests, newerTags, tagsReason, checkedAt } = res;
    return {
      ...appFromInspect(info, res.isUpdatable),
      newerVersion: newerTags[0] ?? null,
      reason: res.reason,
      update: { image, remoteDigest, localDigests, newerTags, tagsReason, checkedAt },
    };
  }

  /** Updates the app (see replace) and returns the new list. */
  async update(name: string, by: string): Promise<App[]> {
    await this.replace(name, { by, source: 'update' });
    return this.apps.list();
  }

  /**
   * Pulls the app's image, then replaces the container with one made from it under the same name
   * and configuration (created first, swapped in, the old one removed last; put back on failure).
   * With a `gate`, the started replacement must pass it, else the old container is put back and
   * the gate's reason returned as `rolledBack`, and the image's tag points at the old image again.
   * With `image` (an update by version: the same repository, a newer tag) the replacement runs that
   * reference instead of the app's own. The updated app is recorded as a revision.
   */
  async replace(name: string, opts: ReplaceOptions): Promise<{ rolledBack: string | null }> {
    const { gate, image } = opts;
    const old = await this.apps.inspect(name);
    if (this.busy.has(old.Id)) throw new ConflictError(`${name} is already being updated.`);
    // Replacing Berth's own container from inside it would stop Berth halfway through the swap.
    const self = await findSelfContainer(this.ctx.docker, {
      containerName: this.ctx.config.containerName,
      hostname: this.ctx.config.hostname,
    });
    if (self.container?.Id === old.Id)
      throw new ConflictError(`${name} is Berth itself; update it from Settings → Update, which hands over safely.`);
    const ref = image ?? old.Config.Image;
    if (IMAGE_ID.test(ref))
      throw new ValidationError(`${name} was created from an image ID, so there is no name to pull a newer image by.`);
    this.busy.add(old.Id);
    try {
      await pullImage(this.ctx.docker, ref, { idleMs: PULL_IDLE_MS, auth: this.ctx.registryAuth?.(ref) });
      const spec = recreateSpec(old, await imageDefaults(this.ctx.docker, old.Image, this.ctx.log), ref);
      const how = { extraNetworks: spec.extraNetworks, log: this.ctx.log };
      if (gate) {
        const out = await replaceContainerGated(this.ctx.docker, old.Id, spec.create, { ...how, gate });
        // The pull moved the tag to the image that failed; it names the one that runs again. A newer
        // tag (an update by version) moved nothing the old container runs by.
        if ('rolledBack' in out) {
          const tag = ref === old.Config.Image ? await restoreTag(this.ctx.docker, ref, old.Image) : '';
          return { rolledBack: `${out.rolledBack} The previous container was put back.${tag}` };
        }
      } else {
        await replaceContainer(this.ctx.docker, old.Id, spec.create, how);
      }
      this.rt.updatable.delete(old.Id);
      await this.revisions?.recordCurrent(bareName(old.Name), { by: opts.by, source: opts.source, outcome: 'success' });
      return { rolledBack: null };
    } catch (err) {
      // replaceContainer leaves the old container as it was unless it says restore_failed.
      if (err instanceof AppError && err.code !== ErrorCode.restoreFailed) {
        throw err.withDetail(`Updating ${bareName(old.Name)} failed: ${err.message} The app was left as it was.`);
      }
      throw err;
    } finally {
      this.busy.delete(old.Id);
    }
  }
}
