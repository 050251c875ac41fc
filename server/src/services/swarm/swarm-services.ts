import type { PolicyFeature, ServiceCreateBody, ServiceDetail, SwarmService, SwarmTask } from '@berth/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Engine, RegistryAuth } from '../../docker/engine';
import { readLogBatches, type LogLine } from '../../docker/logs';
import type { RawService } from '../../docker/swarm-engine';
import { ConflictError } from '../../errors';
import type { SseStream } from '../../lib/sse';
import { endAtUntil, endOfRange, endsInPast, sendLogLines, type LogRange } from '../logs/log-range';
import type { Actor, PolicyGate } from '../policy';
import { serviceFeatures } from '../policy/service-features';
import { applyForm, newSpec, toService, toServiceDetail, toTask, type ObjectIds, type ServiceForm } from './swarm-spec';

const ROLLBACK_ATTEMPTS = 3;

/** Swarm services: list, create from the form, edit at a version, scale, roll back, remove, tasks and logs. */
export class SwarmServicesService {
  constructor(
    private readonly docker: Engine,
    private readonly log: FastifyBaseLogger,
    private readonly policy: PolicyGate,
    /** The stored credential for an image (ctx.registryAuth): sent with create and update (`--with-registry-auth`). */
    private readonly registryAuth: (image: string) => RegistryAuth | undefined = () => undefined,
  ) {}

  private authFor(spec: { TaskTemplate?: { ContainerSpec?: { Image?: string } } }): RegistryAuth | undefined {
    const image = spec.TaskTemplate?.ContainerSpec?.Image;
    // The engine pins `image:tag@sha256:…`; the credential is chosen by the host alone.
    return image ? this.registryAuth(image) : undefined;
  }

  async list(): Promise<SwarmService[]> {
    const services = await this.docker.swarm.listServices();
    return services.map((s) => toService(s)).sort((a, b) => a.name.localeCompare(b.name));
  }

  async get(ref: string): Promise<ServiceDetail> {
    const s = await this.docker.swarm.inspectService(ref);
    return this.detail(s);
  }

  /** The list answer counts running tasks; a single inspect does not, so count them here. */
  private async detail(s: RawService): Promise<ServiceDetail> {
    const tasks = await this.docker.swarm.listTasks({ service: [s.ID], 'desired-state': ['running'] });
    const d = toServiceDetail(s);
    return { ...d, replicas: { ...d.replicas, running: tasks.filter((t) => t.Status.State === 'running').length } };
  }

  /** Names of secrets and configs the form uses, to the ids the engine wants (unknown ones are a 400 naming the field). */
  private async objectIds(f: ServiceForm): Promise<ObjectIds> {
    const ids: ObjectIds = { secrets: new Map(), configs: new Map() };
    if (f.secrets?.length)
      for (const o of await this.docker.swarm.listObjects('secret')) ids.secrets.set(o.Spec.Name, o.ID);
    if (f.configs?.length)
      for (const o of await this.docker.swarm.listObjects('config')) ids.configs.set(o.Spec.Name, o.ID);
    return ids;
  }

  async create(body: z.output<typeof ServiceCreateBody>, actor: Actor): Promise<ServiceDetail> {
    const { name, mode, ...form } = body;
    const spec = applyForm(newSpec(name, form.image, mode), form, await this.objectIds(form));
    await this.policy.check(actor, [...serviceFeatures(spec), ...hostNetworkOf(form)]);
    const existing = await this.docker.swarm.listServices({ name: [name] });
    if (existing.some((s) => s.Spec.Name === name)) throw new ConflictError(`A service named ${name} already exists.`);
    const id = await this.docker.swarm.createService(spec, this.authFor(spec));
    return this.get(id);
  }

  /** Applies the form's fields at `version`; the engine refuses a stale version (409). */
  async update(ref: string, version: number, form: ServiceForm, actor: Actor): Promise<ServiceDetail> {
    const current = await this.docker.swarm.inspectService(ref);
    if (current.Version.Index !== version)
      throw new ConflictError(
        `Service ${current.Spec.Name} was changed meanwhile (version ${current.Version.Index}, the form has ${version}); reload it and try again.`,
      );
    const spec = applyForm(current.Spec, form, await this.objectIds(form));
    // What the service already had (an admin may have made it) is kept; an update cannot widen it.
    await this.policy.check(actor, [...serviceFeatures(spec), ...hostNetworkOf(form)], {
      before: serviceFeatures(current.Spec),
    });
    await this.docker.swarm.updateService(current.ID, version, spec, { auth: this.authFor(spec) });
    return this.get(current.ID);
  }

  /**
   * The engine bumps a service's version as its own update progresses, so a rollback (which has
   * no version from a form) reads the current one and tries again if it moved in between.
   */
  async rollback(ref: string): Promise<ServiceDetail> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.docker.swarm.inspectService(ref);
      if (!current.PreviousSpec)
        throw new ConflictError(`Service ${current.Spec.Name} has no previous version to roll back to.`);
      try {
        await this.docker.swarm.updateService(current.ID, current.Version.Index, current.Spec, {
          rollback: true,
          auth: this.authFor(current.PreviousSpec),
        });
        return await this.get(current.ID);
      } catch (err) {
        if (!(err instanceof ConflictError) || attempt >= ROLLBACK_ATTEMPTS) throw err;
      }
    }
  }

  async remove(ref: string): Promise<{ removed: string }> {
    const s = await this.docker.swarm.inspectService(ref);
    await this.docker.swarm.removeService(s.ID);
    return { removed: s.Spec.Name };
  }

  async tasks(ref: string): Promise<SwarmTask[]> {
    const s = await this.docker.swarm.inspectService(ref);
    const tasks = await this.docker.swarm.listTasks({ service: [s.ID] });
    return tasks.map(toTask).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /**
   * The service's lines of the range (all tasks; the last 500 by default), then new ones until the
   * client goes, in the app logs' shapes (text or json batches, timestamps on request). A range
   * that ends in the past sends its lines and an `end` event; a later `until` ends the stream then.
   * The service is looked up before the stream opens (an unknown one is a plain 404).
   */
  async openLogs(ref: string, range: LogRange): Promise<(sse: SseStream) => void> {
    const s = await this.docker.swarm.inspectService(ref);
    const tty = Boolean(s.Spec.TaskTemplate.ContainerSpec.TTY);
    const past = endsInPast(range);
    return (sse) => {
      const cancelEnd = past ? () => undefined : endAtUntil(sse, range);
      this.pump(s.ID, tty, sse, range, !past)
        .then(() => {
          if (past) endOfRange(sse);
        })
        .catch((err: unknown) => {
          this.log.warn({ err, service: s.Spec.Name }, 'service log stream failed');
          sse.comment('The log stream failed; reconnect to try again.');
        })
        .finally(() => {
          cancelEnd();
          sse.close();
        });
    };
  }

  private async pump(id: string, tty: boolean, sse: SseStream, range: LogRange, follow: boolean): Promise<void> {
    // The engine's service log has no `until`: lines past it are dropped here.
    const inRange = (l: LogLine) =>
      l.nanos === null ||
      ((range.sinceNanos === undefined || l.nanos >= range.sinceNanos) &&
        (range.untilNanos === undefined || l.nanos < range.untilNanos));
    const stream = await this.docker.swarm.serviceLogs(id, {
      follow,
      timestamps: true,
      signal: sse.signal,
      ...(range.tail !== undefined ? { tail: range.tail } : {}),
      ...(range.sinceNanos !== undefined ? { afterNanos: range.sinceNanos - 1n } : {}),
    });
    try {
      for await (const batch of readLogBatches(stream, tty)) {
        const lines = batch.filter(inRange);
        if (lines.length && !(await sendLogLines(sse, lines, range))) break;
      }
    } catch (err) {
      // The client left (the abort ends the engine stream) or the engine went away.
      if (!sse.closed) throw err;
    }
  }
}

/** The form names networks; `host` is the host's own network stack. */
function hostNetworkOf(form: ServiceForm): PolicyFeature[] {
  return (form.networks ?? []).some((n) => n === 'host')
    ? [{ rule: 'host_network', value: 'host', field: 'networks' }]
    : [];
}
