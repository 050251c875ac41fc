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
}

export const emptyServiceForm: ServiceForm = { name: '', image: '', mode: 'replicated', replicas: 1, command: '', env: '', ports: '', constraints: '', labels: '', secrets: [], networks: '' };

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
    return { published: m[1] ? Number(m[1]) : null, target: Number(m[2]), protocol: (m[3] ?? 'tcp') as 'tcp' | 'udp' | 'sctp', mode: (m[4] ?? 'ingress') as 'host' | 'ingress' };
  });
}

/** What is wrong, by field, before anything is sent (the server checks again and names the field). */
export function serviceFormErrors(f: ServiceForm, editing = false): Partial<Record<keyof ServiceForm, string>> {
  const e: Partial<Record<keyof ServiceForm, string>> = {};
  if (!editing && !/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/.test(f.name.trim())) e.name = 'Letters, digits, _ . - (starting with a letter or digit).';
  if (!f.image.trim()) e.image = 'Image is required.';
  if (!Number.isInteger(f.replicas) || f.replicas < 0) e.replicas = 'A whole number, 0 or more.';
  const badPort = lines(f.ports).find((l) => !PORT.test(l));
  if (badPort) e.ports = `Not a port mapping: ${badPort} (use 8080:80, 53:53/udp or 8080:80 host).`;
  const badEnv = lines(f.env).find((l) => !/^[A-Za-z_][A-Za-z0-9_.-]*=/.test(l));
  if (badEnv) e.env = `Not KEY=value: ${badEnv}`;
  const badConstraint = lines(f.constraints).find((l) => !/(==|!=)/.test(l));
  if (badConstraint) e.constraints = `A constraint compares with == or !=: ${badConstraint}`;
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
  };
}

export function toUpdateBody(f: ServiceForm, version: number): ServiceUpdateBody {
  const { name: _name, mode, env, replicas, ...rest } = toCreateBody(f);
  return { ...rest, command: lines(f.command), version, ...(mode === 'replicated' ? { replicas } : {}), ...(lines(f.env).length ? { env } : {}) };
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
    ports: s.ports.map((p) => `${p.published ? `${p.published}:` : ''}${p.target}/${p.protocol}${p.mode === 'host' ? ' host' : ''}`).join('\n'),
    constraints: s.constraints.join('\n'),
    labels: Object.entries(s.labels)
      .filter(([k]) => k !== 'com.docker.stack.namespace')
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    secrets: s.secrets,
    networks: s.networks.join('\n'),
  };
}
