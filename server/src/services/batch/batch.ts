import pLimit from 'p-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import {
  AppName,
  ErrorCode,
  ImageIdParams,
  NetworkName,
  VolumeName,
  type AppBatchAction,
  type AppBatchResult,
  type BatchItemResult,
  type ImageSummary,
  type Network,
  type Project,
  type ProjectAction,
  type Volume,
} from '@berth/contract';
import { AppError, ValidationError } from '../../errors';
import type { AppsService } from '../apps/apps';
import type { AppUpdateService } from '../apps/apps-update';
import type { ImagesService } from '../images/images';
import type { NetworksService } from '../networks/networks';
import type { ProjectActionsService } from '../projects/projects-actions';
import type { ProjectsService } from '../projects/projects';
import type { VolumesService } from '../volumes/volumes';
import type { Actor } from '../policy';

/**
 * Items acted on at once. The engine serialises much of its work anyway and the host may be
 * small; four keeps a batch of fifty quick without flooding the engine or the compose CLI.
 */
export const BATCH_CONCURRENCY = 4;

/** The single-item services a batch reuses (one environment's). */
export interface BatchDeps {
  apps: AppsService;
  appUpdates: AppUpdateService;
  images: ImagesService;
  volumes: VolumesService;
  networks: NetworksService;
  projects: ProjectsService;
  projectActions: ProjectActionsService;
  log: FastifyBaseLogger;
}

type Results<K extends string, T> = { results: BatchItemResult[] } & Record<K, T[]>;

/** One action on many items: each item goes through the same service call as its single-item route. */
export class BatchService {
  constructor(private readonly d: BatchDeps) {}

  async apps(action: AppBatchAction, names: string[], by: string): Promise<AppBatchResult> {
    const results = await this.run(names, AppName, (name) =>
      action === 'update' ? this.d.appUpdates.replace(name, { by, source: 'update' }) : this.d.apps.act(name, action),
    );
    return { results, apps: await this.d.apps.list() };
  }

  async removeImages(ids: string[], force: boolean): Promise<Results<'images', ImageSummary>> {
    const results = await this.run(ids, ImageIdParams.shape.id, (id) => this.d.images.remove(id, force));
    return { results, images: await this.d.images.list() };
  }

  async removeVolumes(names: string[]): Promise<Results<'volumes', Volume>> {
    const results = await this.run(names, VolumeName, (name) => this.d.volumes.remove(name));
    return { results, volumes: await this.d.volumes.list() };
  }

  async removeNetworks(ids: string[]): Promise<Results<'networks', Network>> {
    const results = await this.run(ids, NetworkName, (id) => this.d.networks.remove(id));
    return { results, networks: await this.d.networks.list() };
  }

  async projects(action: ProjectAction, names: string[], actor: Actor): Promise<Results<'projects', Project>> {
    // Names are checked by the project resolver inside run(), like the single-item route.
    const results = await this.run(names, null, (name) => this.d.projectActions.run(name, action, null, actor));
    return { results, projects: await this.d.projects.list() };
  }

  /** Acts on each distinct item, a few at a time; every failure becomes that item's result. */
  private async run(
    items: string[],
    schema: z.ZodType | null,
    act: (item: string) => Promise<unknown>,
  ): Promise<BatchItemResult[]> {
    const limit = pLimit(BATCH_CONCURRENCY);
    return Promise.all(
      [...new Set(items)].map((name) =>
        limit(async (): Promise<BatchItemResult> => {
          try {
            const checked = schema?.safeParse(name);
            if (checked && !checked.success)
              throw new ValidationError(`${name}: ${checked.error.issues.map((i) => i.message).join(' ')}`);
            await act(name);
            return { name, ok: true, status: 200 };
          } catch (err) {
            return this.failure(name, err);
          }
        }),
      ),
    );
  }

  private failure(name: string, err: unknown): BatchItemResult {
    if (err instanceof AppError)
      return { name, ok: false, status: err.statusCode, code: err.code, detail: err.message };
    this.d.log.error({ err, item: name }, 'batch item failed');
    return {
      name,
      ok: false,
      status: 500,
      code: ErrorCode.internal,
      detail: 'Failed; the server log has the details.',
    };
  }
}
