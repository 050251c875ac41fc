import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { SELF_UPDATE_MESSAGE, type SelfUpdateCheck, type SelfUpdateStarted } from '@berth/contract';
import type { Uses } from '../../context';
import { recreateSpec } from '../apps/containers';
import { checkImageUpdate, pullImage } from '../images/images-update';
import { inspectImage } from '../images/engine-images';
import { findSelfContainer, runningUpdater, startUpdater, updaterSpec, type SelfLookup } from './self-container';
import { bareName, IMAGE_ID } from '../../docker/names';
import { ConflictError, NotInContainerError, UpdaterMissingError, UpToDateError, ValidationError } from '../../errors';
import { imageDefaults, readOutcome } from './self-update-run';

const PULL_IDLE_MS = 5 * 60_000;

/**
 * The updater's entry point beside this module (self-update-main.ts when run from source,
 * self-update-main.mjs in the bundled image), run with the same node and flags as Berth itself.
 */
function updaterCommand(target: string, image: string): string[] {
  const here = fileURLToPath(import.meta.url);
  const entry = path.join(path.dirname(here), `self-update-main${path.extname(here)}`);
  if (!fs.existsSync(entry)) throw new UpdaterMissingError(`This build of Berth has no updater (${entry} is missing).`);
  return [process.execPath, ...process.execArgv, entry, '--target', target, '--image', image];
}

/**
 * Self-update without a third-party updater: Berth pulls its own image, then starts a short-lived
 * copy of its own container (same image it runs now, same mounts, user and networks, no ports)
 * whose only job is the swap. That updater has to live outside the Berth container, because the
 * swap stops Berth midway: the new container cannot start while the old one holds the ports.
 * The updater creates the replacement, stops the old Berth, starts the new one, waits for it to
 * be healthy and removes the old one, or puts the old one back (see swapContainer).
 */
export class SelfUpdateService {
  private busy = false;

  constructor(
    private readonly ctx: Uses<'docker' | 'log' | 'registryAuth', 'containerName' | 'dataDir' | 'hostname'>,
  ) {}

  private self(): Promise<SelfLookup> {
    return findSelfContainer(this.ctx.docker, {
      containerName: this.ctx.config.containerName,
      hostname: this.ctx.config.hostname,
    });
  }

  async check(): Promise<SelfUpdateCheck> {
    const [self, lastUpdate] = await Promise.all([this.self(), readOutcome(this.ctx.config.dataDir, this.ctx.log)]);
    const checkedAt = new Date().toISOString();
    if (!self.container)
      return { updatable: false, reason: self.reason, container: null, image: null, checkedAt, lastUpdate };
    const { Config, Image, Name } = self.container;
    const res = await checkImageUpdate(this.ctx.docker, Config.Image, {
      imageId: Image,
      auth: this.ctx.registryAuth?.(Config.Image),
    });
    return {
      updatable: res.isUpdatable,
      reason: res.reason,
      container: bareName(Name),
      image: Config.Image,
      checkedAt,
      lastUpdate,
    };
  }

  async start(): Promise<SelfUpdateStarted> {
    if (this.busy) throw new ConflictError('An update of Berth is already being prepared.');
    this.busy = true;
    try {
      return await this.prepare();
    } finally {
      this.busy = false;
    }
  }

  private async prepare(): Promise<SelfUpdateStarted> {
    const self = await this.self();
    if (!self.container) throw new NotInContainerError(`Cannot update: ${self.reason}`);
    const info = self.container;
    const name = bareName(info.Name);
    const ref = info.Config.Image;
    const busyWith = await runningUpdater(this.ctx.docker, info.Id);
    if (busyWith) throw new ConflictError(`An update of Berth is already running (${busyWith}).`);
    if (IMAGE_ID.test(ref))
      throw new ValidationError('Berth was started from an image ID, so there is no name to pull a newer image by.');

    await pullImage(this.ctx.docker, ref, { idleMs: PULL_IDLE_MS, auth: this.ctx.registryAuth?.(ref) });
    const pulled = await inspectImage(this.ctx.docker, ref);
    if (pulled.Id === info.Image) throw new UpToDateError(`Berth already runs the newest ${ref}.`);

    const command = updaterCommand(info.Id, ref);
    const base = recreateSpec(info, await imageDefaults(this.ctx.docker, info.Image, this.ctx.log), info.Image);
    const updater = `${name}-berth-updater-${randomBytes(4).toString('hex')}`;
    await startUpdater(this.ctx.docker, updater, updaterSpec(info, base, command));
    this.ctx.log.info({ container: name, image: ref, updater }, 'self-update started');
    return { result: 'started', detail: SELF_UPDATE_MESSAGE, container: name, image: ref, updater };
  }
}
