import type { PolicyFeature } from '../schemas/policy-judge';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A short-syntax volume source that compose reads as a host path rather than a volume name. */
export const isHostPathSource = (s: string) => /^[./~]/.test(s) || s.includes('/') || /^[a-zA-Z]:\\/.test(s);

/** `src:dst[:mode]` → its host side, or null for an anonymous volume (`/data`). */
function shortVolumeSource(spec: string): string | null {
  const parts = spec.split(':');
  // A Windows drive letter (`C:\x:/y`) is the one colon a source may hold.
  if (/^[a-zA-Z]$/.test(parts[0] ?? '') && parts.length > 2) return `${parts[0]}:${parts[1]}`;
  return parts.length > 1 ? parts[0]! : null;
}

/**
 * A top-level volume whose driver options make the local driver mount a host path (`type: none`,
 * `o: bind`, `device: /srv/x`) is a bind mount under another name; a device path without `bind`
 * mounts a block device.
 */
function volumeDefinitionFeature(name: string, def: unknown): PolicyFeature | null {
  if (!isRecord(def) || !isRecord(def.driver_opts)) return null;
  if (def.driver !== undefined && def.driver !== 'local') return null;
  const device = def.driver_opts.device;
  if (typeof device !== 'string' || !device.startsWith('/')) return null;
  const o = String(def.driver_opts.o ?? '');
  const bind = def.driver_opts.type === 'none' || /(^|,)r?bind(,|$)/.test(o);
  return {
    rule: bind ? 'bind_mounts' : 'devices',
    value: device,
    field: `volumes.${name}.driver_opts.device`,
    at: ['volumes', name, 'driver_opts', 'device'],
  };
}

/** Networks that stand for the host's own network stack (`name: host`, or the key `host` as external). */
function hostNetworks(data: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  if (!isRecord(data.networks)) return out;
  for (const [key, def] of Object.entries(data.networks)) {
    const name = isRecord(def) && typeof def.name === 'string' ? def.name : key;
    if (name === 'host') out.add(key);
  }
  return out;
}

/**
 * The engine's name of each top-level volume, as compose (v1 and v2) and `docker stack deploy`
 * name it: its `name:`, an external one's own key (or `external: {name}`, the legacy form), else
 * `<project>_<key>`. Without a project only the names the file spells out are known.
 */
function volumeNames(data: Record<string, unknown>, project: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const defs = isRecord(data.volumes) ? data.volumes : {};
  for (const [key, def] of Object.entries(defs)) {
    const d = isRecord(def) ? def : {};
    const ext = d.external;
    const named = typeof d.name === 'string' && d.name ? d.name : null;
    if (isRecord(ext) && typeof ext.name === 'string' && ext.name) out.set(key, ext.name);
    else if (named) out.set(key, named);
    else if (ext === true || ext === 'true' || isRecord(ext)) out.set(key, key);
    else if (project) out.set(key, `${project}_${key}`);
  }
  return out;
}

/** A service's mount of a named volume (short or long syntax) → that volume's key in the file. */
function namedVolumeKey(v: unknown): string | null {
  if (typeof v === 'string') {
    // Split at the first colon only: `b:/x:ro` may be read as a drive letter, but judging `b` as a volume too costs nothing.
    const [src, ...rest] = v.split(':');
    return rest.length && src && !isHostPathSource(src) ? src : null;
  }
  if (isRecord(v) && (v.type === undefined || v.type === 'volume') && typeof v.source === 'string' && v.source)
    return v.source;
  return null;
}

interface FileContext {
  hostNets: Set<string>;
  volumes: Map<string, string>;
  project: string | undefined;
}

function serviceFeatures(name: string, svc: Record<string, unknown>, file: FileContext): PolicyFeature[] {
  const out: PolicyFeature[] = [];
  const base = ['services', name] as const;
  const add = (rule: PolicyFeature['rule'], value: string, ...path: (string | number)[]) =>
    out.push({ rule, value, field: `services.${name}.${path.join('.')}`, at: [...base, ...path] });

  list(svc.volumes).forEach((v, i) => {
    if (typeof v === 'string') {
      const src = shortVolumeSource(v);
      if (src !== null && isHostPathSource(src)) add('bind_mounts', src, 'volumes', i);
    } else if (isRecord(v) && v.type === 'bind' && typeof v.source === 'string') {
      add('bind_mounts', v.source, 'volumes', i, 'source');
    }
    const key = namedVolumeKey(v);
    // An undeclared key is refused by the CLI; judged under its default name all the same.
    const engineName = key === null ? null : (file.volumes.get(key) ?? (file.project ? `${file.project}_${key}` : key));
    if (engineName !== null)
      add('volume', engineName, ...(typeof v === 'string' ? ['volumes', i] : ['volumes', i, 'source']));
  });
  if (svc.privileged === true || svc.privileged === 'true') add('privileged', 'true', 'privileged');
  if (isRecord(svc.build) && svc.build.privileged === true) add('privileged', 'true', 'build', 'privileged');
  list(svc.cap_add).forEach((c, i) => typeof c === 'string' && add('cap_add', c, 'cap_add', i));
  const modes = [
    ['pid', 'host_pid'],
    ['ipc', 'host_ipc'],
    ['uts', 'host_uts'],
    ['network_mode', 'host_network'],
    ['userns_mode', 'host_userns'],
  ] as const;
  for (const [key, rule] of modes) {
    const mode = svc[key];
    if (mode === 'host') add(rule, 'host', key);
    // `container:x` joins another container's namespace (`service:x` is one of this file's).
    else if (typeof mode === 'string' && mode.startsWith('container:'))
      add('namespace', mode.slice('container:'.length), key);
  }
  const nets = svc.networks;
  const joined = Array.isArray(nets)
    ? nets.filter((n) => typeof n === 'string')
    : isRecord(nets)
      ? Object.keys(nets)
      : [];
  for (const n of joined) if (file.hostNets.has(n)) add('host_network', 'host', 'networks');
  list(svc.devices).forEach((d, i) => {
    if (typeof d === 'string') add('devices', d.split(':')[0]!, 'devices', i);
    else if (isRecord(d) && typeof d.source === 'string') add('devices', d.source, 'devices', i);
  });
  list(svc.device_cgroup_rules).forEach((r, i) => typeof r === 'string' && add('devices', r, 'device_cgroup_rules', i));
  if (isRecord(svc.sysctls)) for (const k of Object.keys(svc.sysctls)) add('sysctls', k, 'sysctls', k);
  else list(svc.sysctls).forEach((s, i) => typeof s === 'string' && add('sysctls', s.split('=')[0]!, 'sysctls', i));
  list(svc.security_opt).forEach((s, i) => typeof s === 'string' && add('security_opt', s, 'security_opt', i));
  if (typeof svc.cgroup_parent === 'string' && svc.cgroup_parent)
    add('cgroup_parent', svc.cgroup_parent, 'cgroup_parent');
  list(svc.volumes_from).forEach((v, i) => {
    // `service:x` and a bare name refer to a service of this file, judged with the rest of it.
    if (typeof v === 'string' && v.startsWith('container:'))
      add('volumes_from', v.slice('container:'.length).split(':')[0]!, 'volumes_from', i);
  });
  return out;
}

/**
 * What a compose document (already interpolated, merge keys honoured) asks of the engine that the
 * policy judges. Bind sources are as written (relative to the project folder); the server resolves
 * them before judging. Named volumes carry the engine's name of the volume, which needs the
 * project's (or stack's) name for the ones the file does not name itself.
 */
export function composePolicyFeatures(data: Record<string, unknown>, opts: { project?: string } = {}): PolicyFeature[] {
  const out: PolicyFeature[] = [];
  const file = { hostNets: hostNetworks(data), volumes: volumeNames(data, opts.project), project: opts.project };
  if (isRecord(data.services))
    for (const [name, svc] of Object.entries(data.services))
      if (isRecord(svc)) out.push(...serviceFeatures(name, svc, file));
  if (isRecord(data.volumes))
    for (const [name, def] of Object.entries(data.volumes)) {
      const f = volumeDefinitionFeature(name, def);
      if (f) out.push(f);
    }
  return out;
}
