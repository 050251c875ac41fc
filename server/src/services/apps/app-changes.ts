import type { App, AppCommitResult, AppResourcesBody } from '@berth/contract';
import type { Uses } from '../../context';
import type { ContainerUpdate } from '../../docker/container-changes';
import { bareName } from '../../docker/names';
import { ConflictError, ValidationError } from '../../errors';
import type { AppsService } from './apps';
import type { AppRevisionRecorder } from './apps-update';

const COMPOSE_PROJECT = 'com.docker.compose.project';
const COMPOSE_SERVICE = 'com.docker.compose.service';

/** The engine's update body from the API's (a field left out stays as it is). */
export function engineUpdate(body: AppResourcesBody): ContainerUpdate {
  const update: ContainerUpdate = {};
  if (body.cpus !== undefined) update.NanoCpus = Math.round(body.cpus * 1e9);
  if (body.memory !== undefined) update.Memory = body.memory;
  if (body.memory_swap !== undefined) update.MemorySwap = body.memory_swap;
  if (body.cpu_shares !== undefined) update.CpuShares = body.cpu_shares;
  if (body.pids_limit !== undefined) update.PidsLimit = body.pids_limit;
  if (body.restart_policy) {
    update.RestartPolicy = { Name: body.restart_policy.name };
    if (body.restart_policy.name === 'on-failure')
      update.RestartPolicy.MaximumRetryCount = body.restart_policy.maximum_retry_count ?? 0;
  }
  return update;
}

/**
 * Changes to an app that keep its container (id, writable layer, running processes): rename,
 * limits and restart policy, network connections, and a commit of its state to an image.
 */
export class AppChangesService {
  constructor(
    private readonly ctx: Uses<'docker'>,
    private readonly apps: AppsService,
    private readonly revisions: AppRevisionRecorder | null = null,
  ) {}

  /** The engine's rename (a revision under the new name, which keeps the app's history). A compose service is named by its project, so it is renamed there. */
  async rename(name: string, newName: string, by: string): Promise<App> {
    const info = await this.apps.inspect(name);
    const labels = info.Config.Labels ?? {};
    const project = labels[COMPOSE_PROJECT];
    if (project)
      throw new ConflictError(
        `${bareName(info.Name)} is service ${labels[COMPOSE_SERVICE] ?? '?'} of compose project ${project}; ` +
          `compose names its containers, so rename the service in the project (Projects → ${project}).`,
      );
    if (bareName(info.Name) === newName) throw new ValidationError(`${newName} is already the app's name.`);
    await this.ctx.docker.renameContainer(info.Id, newName);
    await this.revisions?.renamed(bareName(info.Name), newName, by);
    return this.apps.get(info.Id);
  }

  /** Limits and restart policy changed in place; the app as it is then is a revision. */
  async resources(name: string, body: AppResourcesBody, by: string): Promise<App> {
    const info = await this.apps.inspect(name);
    await this.ctx.docker.containers.update(info.Id, engineUpdate(body));
    await this.revisions?.recordCurrent(bareName(info.Name), { by, source: 'resources', outcome: 'success' });
    return this.apps.get(info.Id);
  }

  async connect(name: string, network: string, opts: { aliases?: string[]; ipv4_address?: string }): Promise<App> {
    const info = await this.apps.inspect(name);
    if (info.NetworkSettings?.Networks?.[network])
      throw new ConflictError(`${bareName(info.Name)} is already connected to network ${network}.`);
    await this.ctx.docker.connectNetwork(network, info.Id, {
      ...(opts.aliases?.length ? { Aliases: opts.aliases } : {}),
      ...(opts.ipv4_address ? { IPAMConfig: { IPv4Address: opts.ipv4_address } } : {}),
    });
    return this.apps.get(info.Id);
  }

  async disconnect(name: string, network: string, force = false): Promise<App> {
    const info = await this.apps.inspect(name);
    if (!info.NetworkSettings?.Networks?.[network])
      throw new ConflictError(`${bareName(info.Name)} is not connected to network ${network}.`);
    await this.ctx.docker.containers.disconnectNetwork(network, info.Id, force);
    return this.apps.get(info.Id);
  }

  async commit(name: string, opts: { repo: string; tag: string; comment: string }): Promise<AppCommitResult> {
    const info = await this.apps.inspect(name);
    const id = await this.ctx.docker.containers.commit(info.Id, opts);
    return { id, image: `${opts.repo}:${opts.tag}` };
  }
}
