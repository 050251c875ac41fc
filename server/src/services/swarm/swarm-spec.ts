import type { ServiceDetail, ServicePort, ServiceUpdateBody, SwarmService, SwarmTask } from '@berth/contract';
import type { z } from 'zod';
import type { RawService, RawTask, ResourceAmounts, ServiceSpec, UpdateConfig } from '../../docker/swarm-engine';
import { ValidationError } from '../../errors';

/** The form's fields (parsed), as create and update share them. */
export type ServiceForm = Omit<z.output<typeof ServiceUpdateBody>, 'version'>;

const NS = 1e9;
export const STACK_LABEL = 'com.docker.stack.namespace';

/** Secret and config names resolved to the engine's ids (the spec needs both). */
export interface ObjectIds {
  secrets: Map<string, string>;
  configs: Map<string, string>;
}

function idOf(ids: Map<string, string>, name: string, field: 'secrets' | 'configs'): string {
  const id = ids.get(name);
  if (!id)
    throw new ValidationError(`${field}: there is no ${field.slice(0, -1)} named ${name}.`, [
      { field, message: `No ${field.slice(0, -1)} named ${name}.` },
    ]);
  return id;
}

function updateConfig(p: NonNullable<ServiceForm['updatePolicy']>, rollback: boolean): UpdateConfig {
  return {
    Parallelism: p.parallelism,
    Delay: Math.round(p.delaySeconds * NS),
    Monitor: Math.max(1, Math.round(p.monitorSeconds * NS)),
    // A rollback that fails cannot itself roll back.
    FailureAction: rollback && p.failureAction === 'rollback' ? 'pause' : p.failureAction,
    Order: p.order,
  };
}

/** Lays the given form fields over `base` (a new spec, or the service's current one); the rest stays. */
export function applyForm(base: ServiceSpec, f: ServiceForm, ids: ObjectIds): ServiceSpec {
  const spec: ServiceSpec = structuredClone(base);
  const task = spec.TaskTemplate;
  const c = task.ContainerSpec;
  if (f.image !== undefined) c.Image = f.image;
  if (f.command !== undefined) {
    if (f.command.length) c.Args = f.command;
    else delete c.Args;
  }
  if (f.replicas !== undefined) {
    if (!spec.Mode?.Replicated)
      throw new ValidationError('replicas: a global service runs one task per node; it cannot be scaled.', [
        { field: 'replicas', message: 'A global service cannot be scaled.' },
      ]);
    spec.Mode = { Replicated: { Replicas: f.replicas } };
  }
  if (f.env !== undefined) c.Env = Object.entries(f.env).map(([k, v]) => `${k}=${v}`);
  if (f.mounts !== undefined) {
    f.mounts.forEach((m, i) => {
      if (m.type === 'bind' && !m.source.startsWith('/')) {
        throw new ValidationError(`mounts.${i}.source: a bind mount needs an absolute host path as its source.`, [
          { field: `mounts.${i}.source`, message: 'A bind mount needs an absolute source path.' },
        ]);
      }
    });
    // A mount the form keeps (same type and target) keeps the options the form does not show.
    const before = base.TaskTemplate.ContainerSpec.Mounts ?? [];
    c.Mounts = f.mounts.map((m) => {
      const { Source: _source, ...kept } = before.find((b) => b.Type === m.type && b.Target === m.target) ?? {};
      return {
        ...kept,
        Type: m.type,
        ...(m.source ? { Source: m.source } : {}),
        Target: m.target,
        ReadOnly: m.readOnly,
      };
    });
  }
  if (f.secrets !== undefined) {
    c.Secrets = f.secrets.map((name) => ({
      SecretID: idOf(ids.secrets, name, 'secrets'),
      SecretName: name,
      File: { Name: name, UID: '0', GID: '0', Mode: 0o444 },
    }));
  }
  if (f.configs !== undefined) {
    c.Configs = f.configs.map((x) => ({
      ConfigID: idOf(ids.configs, x.name, 'configs'),
      ConfigName: x.name,
      File: { Name: x.target, UID: '0', GID: '0', Mode: 0o444 },
    }));
  }
  if (f.networks !== undefined) task.Networks = f.networks.map((n) => ({ Target: n }));
  if (f.constraints !== undefined) task.Placement = { ...task.Placement, Constraints: f.constraints };
  if (f.restartPolicy !== undefined) {
    const r = f.restartPolicy;
    task.RestartPolicy = {
      Condition: r.condition,
      Delay: Math.round(r.delaySeconds * NS),
      MaxAttempts: r.maxAttempts,
      Window: Math.round(r.windowSeconds * NS),
    };
  }
  if (f.resources !== undefined) {
    const r = f.resources;
    const part = (
      prev: ResourceAmounts | undefined,
      cpu: number | null | undefined,
      mem: number | null | undefined,
    ) => {
      const { NanoCPUs: _cpus, MemoryBytes: _memory, ...kept } = prev ?? {};
      return { ...kept, ...(cpu ? { NanoCPUs: Math.round(cpu * NS) } : {}), ...(mem ? { MemoryBytes: mem } : {}) };
    };
    const prev = base.TaskTemplate.Resources;
    task.Resources = {
      Limits: part(prev?.Limits, r.cpuLimit, r.memoryLimitBytes),
      Reservations: part(prev?.Reservations, r.cpuReservation, r.memoryReservationBytes),
    };
  }
  if (f.updatePolicy !== undefined) {
    // Settings the form does not show (MaxFailureRatio) stay.
    spec.UpdateConfig = { ...base.UpdateConfig, ...updateConfig(f.updatePolicy, false) };
    spec.RollbackConfig = { ...base.RollbackConfig, ...updateConfig(f.updatePolicy, true) };
  }
  if (f.labels !== undefined)
    spec.Labels = { ...f.labels, ...(base.Labels?.[STACK_LABEL] ? { [STACK_LABEL]: base.Labels[STACK_LABEL] } : {}) };
  if (f.ports !== undefined) {
    spec.EndpointSpec = {
      Mode: 'vip',
      Ports: f.ports.map((p) => ({
        Protocol: p.protocol,
        TargetPort: p.target,
        ...(p.published ? { PublishedPort: p.published } : {}),
        PublishMode: p.mode,
      })),
    };
  }
  return spec;
}

export function newSpec(name: string, image: string, mode: 'replicated' | 'global'): ServiceSpec {
  return {
    Name: name,
    Labels: {},
    TaskTemplate: { ContainerSpec: { Image: image } },
    Mode: mode === 'global' ? { Global: {} } : { Replicated: { Replicas: 1 } },
  };
}

const ports = (s: RawService): ServicePort[] =>
  (s.Endpoint?.Ports ?? s.Spec.EndpointSpec?.Ports ?? []).map((p) => ({
    target: p.TargetPort ?? 0,
    published: p.PublishedPort ?? null,
    protocol: p.Protocol ?? 'tcp',
    mode: p.PublishMode ?? 'ingress',
  }));

/** The image as written, without the digest `docker stack deploy` pins (`name:tag@sha256:…`). */
const shownImage = (image: string) => image.replace(/(:[\w][\w.-]{0,127})@sha256:[0-9a-f]{64}$/, '$1');

export function toService(s: RawService, running?: number): SwarmService {
  const replicated = s.Spec.Mode?.Replicated;
  return {
    id: s.ID,
    version: s.Version.Index,
    name: s.Spec.Name,
    image: shownImage(s.Spec.TaskTemplate.ContainerSpec.Image),
    mode: replicated ? 'replicated' : 'global',
    replicas: {
      running: running ?? s.ServiceStatus?.RunningTasks ?? 0,
      desired: replicated ? (replicated.Replicas ?? 1) : (s.ServiceStatus?.DesiredTasks ?? 0),
    },
    ports: ports(s),
    updateStatus: s.UpdateStatus?.State ? { state: s.UpdateStatus.State, message: s.UpdateStatus.Message ?? '' } : null,
    stack: s.Spec.Labels?.[STACK_LABEL] ?? null,
    labels: s.Spec.Labels ?? {},
    createdAt: s.CreatedAt,
    updatedAt: s.UpdatedAt,
  };
}

export function toServiceDetail(s: RawService): ServiceDetail {
  const c = s.Spec.TaskTemplate.ContainerSpec;
  const t = s.Spec.TaskTemplate;
  const u = s.Spec.UpdateConfig ?? {};
  return {
    ...toService(s),
    command: c.Args ?? [],
    envNames: (c.Env ?? []).map((e) => e.split('=')[0]!),
    mounts: (c.Mounts ?? []).map((m) => ({
      type: m.Type ?? 'volume',
      source: m.Source ?? '',
      target: m.Target ?? '',
      readOnly: m.ReadOnly ?? false,
    })),
    networks: (t.Networks ?? []).map((n) => n.Target),
    constraints: t.Placement?.Constraints ?? [],
    secrets: (c.Secrets ?? []).map((x) => x.SecretName),
    configs: (c.Configs ?? []).map((x) => ({ name: x.ConfigName, target: x.File?.Name ?? '' })),
    restartPolicy: {
      condition: t.RestartPolicy?.Condition ?? 'any',
      delaySeconds: (t.RestartPolicy?.Delay ?? 5 * NS) / NS,
      maxAttempts: t.RestartPolicy?.MaxAttempts ?? 0,
      windowSeconds: (t.RestartPolicy?.Window ?? 0) / NS,
    },
    updatePolicy: {
      parallelism: u.Parallelism ?? 1,
      delaySeconds: (u.Delay ?? 0) / NS,
      monitorSeconds: (u.Monitor ?? 5 * NS) / NS,
      failureAction: u.FailureAction ?? 'pause',
      order: u.Order ?? 'stop-first',
    },
    resources: {
      cpuLimit: t.Resources?.Limits?.NanoCPUs ? t.Resources.Limits.NanoCPUs / NS : null,
      memoryLimitBytes: t.Resources?.Limits?.MemoryBytes ?? null,
      cpuReservation: t.Resources?.Reservations?.NanoCPUs ? t.Resources.Reservations.NanoCPUs / NS : null,
      memoryReservationBytes: t.Resources?.Reservations?.MemoryBytes ?? null,
    },
    canRollback: Boolean(s.PreviousSpec),
  };
}

export function toTask(t: RawTask): SwarmTask {
  return {
    id: t.ID,
    slot: t.Slot ?? null,
    nodeId: t.NodeID ?? null,
    state: t.Status.State,
    desiredState: t.DesiredState,
    message: t.Status.Message ?? '',
    error: t.Status.Err ?? null,
    image: shownImage(t.Spec.ContainerSpec?.Image ?? ''),
    containerId: t.Status.ContainerStatus?.ContainerID ?? null,
    createdAt: t.CreatedAt,
    updatedAt: t.UpdatedAt,
  };
}
