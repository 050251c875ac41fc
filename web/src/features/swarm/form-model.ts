import type { ServiceCreateBody, ServiceDetail, ServiceUpdateBody } from '@berth/contract';

/** The service form as typed: lists are one item per line. */
export interface ServiceForm {
  name: string;
  image: string;
  mode: 'replicated' | 'global';
  replicas: number;
  /** One argument per line (replaces the image's command). */
  command: string;
  /** KEY=value per line; left empty on edit it keeps the service's variables. */
  env: string;
  /** published:target[/tcp|udp][ host] per line, e.g. 8080:80 or 53:53/udp host. */
  ports: string;
  constraints: string;
  /** label=value per line. */
  labels: string;
  secrets: string[];
  networks: string;
  mounts: MountRow[];
  resources: ResourcesForm;
  restart: RestartForm;
  update: UpdateForm;
}

export interface MountRow {
  type: 'volume' | 'bind' | 'tmpfs';
  /** Volume name or host path (none for tmpfs). */
  source: string;
  target: string;
  readOnly: boolean;
}
/** Blank = no limit / reservation; memory in MiB. */
export interface ResourcesForm {
  cpuLimit: number | '';
  memoryLimitMiB: number | '';
  cpuReservation: number | '';
  memoryReservationMiB: number | '';
}
export interface RestartForm {
  condition: 'none' | 'on-failure' | 'any';
  delaySeconds: number;
  /** 0 = no limit. */
  maxAttempts: number;
  /** 0 = unbounded. */
  windowSeconds: number;
}
export interface UpdateForm {
  /** 0 = all at once. */
  parallelism: number;
  delaySeconds: number;
  failureAction: 'pause' | 'continue' | 'rollback';
  order: 'stop-first' | 'start-first';
  /** Not on the form; kept as the service has it. */
  monitorSeconds: number;
}

/** The engine's own defaults, so a new service gets what `docker service create` would give it. */
export const emptyServiceForm: ServiceForm = {
  name: '',
  image: '',
  mode: 'replicated',
  replicas: 1,
  command: '',
  env: '',
  ports: '',
  constraints: '',
  labels: '',
  secrets: [],
  networks: '',
  mounts: [],
  resources: { cpuLimit: '', memoryLimitMiB: '', cpuReservation: '', memoryReservationMiB: '' },
  restart: { condition: 'any', delaySeconds: 5, maxAttempts: 0, windowSeconds: 0 },
  update: { parallelism: 1, delaySeconds: 0, failureAction: 'pause', order: 'stop-first', monitorSeconds: 5 },
};

const MIB = 1024 * 1024;
const orNull = (v: number | '') => (v === '' ? null : v);
const mib = (v: number | '') => (v === '' ? null : Math.round(v * MIB));
const fromMib = (bytes: number | null): number | '' => (bytes === null ? '' : Math.round((bytes / MIB) * 100) / 100);

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

function pairs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of lines(text)) {
    const at = l.indexOf('=');
    if (at > 0) out[l.slice(0, at)] = l.slice(at + 1);
  }
  return out;
}

const PORT = /^(?:(\d{1,5}):)?(\d{1,5})(?:\/(tcp|udp|sctp))?(?:\s+(host|ingress))?$/;

function ports(text: string) {
  return lines(text).map((l) => {
    const m = PORT.exec(l)!;
    return {
      published: m[1] ? Number(m[1]) : null,
      target: Number(m[2]),
      protocol: (m[3] ?? 'tcp') as 'tcp' | 'udp' | 'sctp',
      mode: (m[4] ?? 'ingress') as 'host' | 'ingress',
    };
  });
}

/**
 * What is wrong, by field, before anything is sent (the server checks again and names the field).
 * Keys are the API's field paths (`mounts.0.target`, `resources.memoryLimitBytes`), as the
 * server's 4xx names them, so one lookup shows either on the field.
 */
export function serviceFormErrors(f: ServiceForm, editing = false): Record<string, string> {
  const e: Record<string, string> = {};
  if (!editing && !/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/.test(f.name.trim()))
    e.name = 'Letters, digits, _ . - (starting with a letter or digit).';
  if (!f.image.trim()) e.image = 'Image is required.';
  if (!Number.isInteger(f.replicas) || f.replicas < 0) e.replicas = 'A whole number, 0 or more.';
  const badPort = lines(f.ports).find((l) => !PORT.test(l));
  if (badPort) e.ports = `Not a port mapping: ${badPort} (use 8080:80, 53:53/udp or 8080:80 host).`;
  const badEnv = lines(f.env).find((l) => !/^[A-Za-z_][A-Za-z0-9_.-]*=/.test(l));
  if (badEnv) e.env = `Not KEY=value: ${badEnv}`;
  const badConstraint = lines(f.constraints).find((l) => !/(==|!=)/.test(l));
  if (badConstraint) e.constraints = `A constraint compares with == or !=: ${badConstraint}`;
  f.mounts.forEach((m, i) => {
    if (!m.target.startsWith('/')) e[`mounts.${i}.target`] = 'An absolute path in the container, e.g. /data.';
    if (m.type === 'bind' && !m.source.startsWith('/'))
      e[`mounts.${i}.source`] = 'A bind mount needs an absolute host path.';
    if (m.type === 'volume' && m.source && !/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/.test(m.source))
      e[`mounts.${i}.source`] = 'A volume name: letters, digits, _ . -';
  });
  const r = f.resources;
  if (r.cpuLimit !== '' && r.cpuReservation !== '' && r.cpuReservation > r.cpuLimit)
    e['resources.cpuReservation'] = 'At most the CPU limit.';
  if (r.memoryLimitMiB !== '' && r.memoryLimitMiB < 6)
    e['resources.memoryLimitBytes'] = 'At least 6 MiB (the engine refuses less).';
  if (r.memoryLimitMiB !== '' && r.memoryReservationMiB !== '' && r.memoryReservationMiB > r.memoryLimitMiB)
    e['resources.memoryReservationBytes'] = 'At most the memory limit.';
  return e;
}

export function toCreateBody(f: ServiceForm): ServiceCreateBody {
  return {
    name: f.name.trim(),
    image: f.image.trim(),
    mode: f.mode,
    ...(f.mode === 'replicated' ? { replicas: f.replicas } : {}),
    ...(lines(f.command).length ? { command: lines(f.command) } : {}),
    env: pairs(f.env),
    ports: ports(f.ports),
    constraints: lines(f.constraints),
    labels: pairs(f.labels),
    secrets: f.secrets,
    networks: lines(f.networks.replace(/,/g, '\n')),
    mounts: f.mounts.map((m) => ({
      type: m.type,
      source: m.type === 'tmpfs' ? '' : m.source.trim(),
      target: m.target.trim(),
      readOnly: m.readOnly,
    })),
    resources: {
      cpuLimit: orNull(f.resources.cpuLimit),
      memoryLimitBytes: mib(f.resources.memoryLimitMiB),
      cpuReservation: orNull(f.resources.cpuReservation),
      memoryReservationBytes: mib(f.resources.memoryReservationMiB),
    },
    restartPolicy: { ...f.restart },
    updatePolicy: { ...f.update },
  };
}

export function toUpdateBody(f: ServiceForm, version: number): ServiceUpdateBody {
  const { name: _name, mode, env, replicas, ...rest } = toCreateBody(f);
  return {
    ...rest,
    command: lines(f.command),
    version,
    ...(mode === 'replicated' ? { replicas } : {}),
    ...(lines(f.env).length ? { env } : {}),
  };
}

/** The edit form of an existing service (env values are never sent back: the field starts empty). */
export function formOf(s: ServiceDetail): ServiceForm {
  return {
    name: s.name,
    image: s.image,
    mode: s.mode,
    replicas: s.replicas.desired,
    command: s.command.join('\n'),
    env: '',
    ports: s.ports
      .map((p) => `${p.published ? `${p.published}:` : ''}${p.target}/${p.protocol}${p.mode === 'host' ? ' host' : ''}`)
      .join('\n'),
    constraints: s.constraints.join('\n'),
    labels: Object.entries(s.labels)
      .filter(([k]) => k !== 'com.docker.stack.namespace')
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    secrets: s.secrets,
    networks: s.networks.join('\n'),
    mounts: s.mounts.map((m) => ({
      type: m.type as MountRow['type'],
      source: m.source,
      target: m.target,
      readOnly: m.readOnly,
    })),
    resources: {
      cpuLimit: s.resources.cpuLimit ?? '',
      memoryLimitMiB: fromMib(s.resources.memoryLimitBytes),
      cpuReservation: s.resources.cpuReservation ?? '',
      memoryReservationMiB: fromMib(s.resources.memoryReservationBytes),
    },
    restart: { ...s.restartPolicy, condition: s.restartPolicy.condition as RestartForm['condition'] },
    update: {
      ...s.updatePolicy,
      failureAction: s.updatePolicy.failureAction as UpdateForm['failureAction'],
      order: s.updatePolicy.order as UpdateForm['order'],
    },
  };
}

/** The 4xx's named fields by path (empty for any other failure). */
export function serverFieldErrors(err: unknown): Record<string, string> {
  const fields = (err as { fields?: readonly { field: string; message: string }[] } | null)?.fields ?? [];
  return Object.fromEntries(fields.map((f) => [f.field, f.message]));
}

/**
 * Whether a failed service update was a stale write: the engine's version of the service moved
 * since it was read (409 conflict). Other 409s (the engine left the swarm) are plain failures.
 */
export function isStaleWrite(err: unknown): boolean {
  const e = err as { status?: unknown; code?: unknown } | null;
  return e?.status === 409 && e.code === 'conflict';
}
