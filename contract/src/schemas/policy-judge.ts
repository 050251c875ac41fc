import type { Role } from '../route';
import { POLICY_RULE_INFO, type EnvironmentPolicy, type PolicyRule } from './policy';

/**
 * One thing a container would get that the policy judges: a bind mount's host path, a
 * capability, a host namespace... `field` names where the request says it (`volumes.0.bind`,
 * `services.web.volumes[1]`); `at` is its path in a compose document, to find its line.
 */
export interface PolicyFeature {
  /**
   * A policy rule; or `volume`, a named volume mounted, and `namespace`, another container whose
   * pid, ipc or network namespace is joined (both judged only against what is Berth's own).
   */
  rule: PolicyRule | 'volume' | 'namespace';
  /** The path (absolute, resolved), volume name (as the engine knows it), capability, device, option or user. */
  value: string;
  field: string;
  at?: readonly (string | number)[];
}

export interface PolicyViolation extends PolicyFeature {
  message: string;
}

/** A host path no operator may mount, nor mount a folder that holds it. */
export interface ProtectedPath {
  path: string;
  what: string;
}

/** A named volume no operator may mount: one Berth's own container mounts (its database and keys live there). */
export interface ProtectedVolume {
  name: string;
  what: string;
}

export interface JudgeContext {
  role: Role;
  environment: string;
  policy: EnvironmentPolicy;
  protectedPaths: readonly ProtectedPath[];
  /** Named volumes no operator may mount, whatever the policy (Berth's own). */
  protectedVolumes?: readonly ProtectedVolume[];
  /** Berth's own container (its name and id): no operator may take its volumes (`volumes_from`). */
  protectedContainers?: readonly string[];
  /** Folders whose insides a bind may always mount (a compose project's or stack's own folder). */
  ownDirs?: readonly string[];
}

/** `/a/b/../c/` → `/a/c` (POSIX, lexical); the server resolves links before it asks. */
export function normalisePosix(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (!part || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

/** Whether `p` is `dir` or inside it. */
export function isWithin(p: string, dir: string): boolean {
  return dir === '/' || p === dir || p.startsWith(`${dir}/`);
}

/** Files of a project's (or stack's) own folder that decide what runs: never mountable, or a container could rewrite them. */
const OWN_RESERVED = new Set([
  'compose.yaml',
  'compose.yml',
  'docker-compose.yaml',
  'docker-compose.yml',
  '.env',
  'docker-stack.yml',
  '.docker-stack.next.yml',
]);

/** Inside an own folder (not the folder itself, nor its compose file or .env). */
function isOwnData(p: string, dir: string): boolean {
  if (!p.startsWith(`${dir}/`)) return false;
  return !OWN_RESERVED.has(p.slice(dir.length + 1).split('/')[0]!);
}

/** Options that turn off a container's confinement (either separator the engine accepts). */
const UNCONFINED = /^(apparmor[=:]unconfined|seccomp[=:]unconfined|label[=:]disable|systempaths[=:]unconfined)$/i;
export const disablesConfinement = (opt: string): boolean => UNCONFINED.test(opt.trim());

export const policyPage = (environment: string) => `Settings → Environments → ${environment} → Policy`;

function roleName(role: Role): string {
  return `${role}s`;
}

/**
 * Whether a container reference (`volumes_from`) may be Berth's own: its name (with or without the
 * leading slash) or a prefix of its id, as the engine resolves references (a container whose name
 * happens to be such a prefix is refused too, the safe side).
 */
function isProtectedContainer(ref: string, own: readonly string[]): boolean {
  const r = ref.replace(/^\//, '');
  return r !== '' && own.some((o) => o.replace(/^\//, '') === r || (/^[0-9a-f]{64}$/.test(o) && o.startsWith(r)));
}

/** Why one feature is refused, or null. */
function judgeOne(f: PolicyFeature, ctx: JudgeContext): string | null {
  const { policy, environment } = ctx;
  const who = roleName(ctx.role);
  const where = `on environment ${environment} (${policyPage(environment)})`;
  if (f.rule === 'bind_mounts') {
    const p = normalisePosix(f.value);
    const covered = ctx.protectedPaths.find((x) => isWithin(x.path, p));
    if (covered)
      return `Bind mount ${p} would expose ${covered.what} (${covered.path}), which no ${ctx.role} may mount whatever the policy; only an admin can deploy it.`;
    if (ctx.ownDirs?.some((d) => isOwnData(p, normalisePosix(d)))) return null;
    const inside = ctx.protectedPaths.find((x) => isWithin(p, x.path));
    if (inside)
      return `Bind mount ${p} is inside ${inside.what} (${inside.path}), which no ${ctx.role} may mount whatever the policy; only an admin can deploy it.`;
    if (policy.bind_mounts === 'allow') return null;
    if (policy.bind_mounts === 'deny') return `Bind mount ${p}: bind mounts are not allowed for ${who} ${where}.`;
    if (policy.bind_allowlist.some((a) => isWithin(p, normalisePosix(a)))) return null;
    return `Bind mount ${p} is outside the paths your admin allows for ${who} ${where}.`;
  }
  if (f.rule === 'volume') {
    const own = ctx.protectedVolumes?.find((v) => v.name === f.value);
    return own
      ? `Volume ${own.name} holds ${own.what}, which no ${ctx.role} may mount whatever the policy; mount another volume, or ask an admin to deploy it.`
      : null;
  }
  if (f.rule === 'namespace')
    return isProtectedContainer(f.value, ctx.protectedContainers ?? [])
      ? `Joining the namespaces of ${f.value} would reach Berth's own container (its processes, files and network), which no ${ctx.role} may whatever the policy; only an admin can deploy it.`
      : null;
  if (f.rule === 'volumes_from' && isProtectedContainer(f.value, ctx.protectedContainers ?? []))
    return `Volumes from ${f.value} would mount the volumes of Berth's own container (its database and keys), which no ${ctx.role} may have whatever the policy; only an admin can deploy it.`;
  if (f.rule === 'security_opt' && !disablesConfinement(f.value)) return null;
  if (f.rule === 'cap_add') {
    const cap = f.value.toUpperCase().replace(/^CAP_/, '');
    if (policy.cap_add === 'allow' || (cap !== 'ALL' && policy.cap_add_allowlist.includes(cap))) return null;
    return `Capability ${cap} is not allowed for ${who} ${where}: ${POLICY_RULE_INFO.cap_add.risk}`;
  }
  if (policy[f.rule] === 'allow') return null;
  const { label, risk } = POLICY_RULE_INFO[f.rule];
  const value = f.value && f.value !== 'true' ? ` (${f.value})` : '';
  return `${label}${value} is not allowed for ${who} ${where}: ${risk}`;
}

/**
 * The one policy judgement: what of `features` the acting role may not have. Admins are never
 * restricted. A bind is refused when it covers a protected path (or lies inside one, unless it is
 * inside an own folder), else by the bind_mounts rule; every other rule is a switch.
 */
export function judgePolicy(features: readonly PolicyFeature[], ctx: JudgeContext): PolicyViolation[] {
  if (ctx.role === 'admin') return [];
  const out: PolicyViolation[] = [];
  for (const f of features) {
    const message = judgeOne(f, ctx);
    if (message) out.push({ ...f, message });
  }
  return out;
}

/** What a violation is keyed by when a recreate is compared with what it replaces. */
export const featureKey = (f: Pick<PolicyFeature, 'rule' | 'value'>) => `${f.rule}\u0000${f.value}`;

/** The deploy form's fields the policy judges (template variables already substituted by the caller). */
export function deployFormFeatures(body: {
  volumes?: readonly { bind: string }[];
  devices?: readonly { host: string }[];
  sysctls?: readonly { name: string }[];
  cap_add?: readonly string[];
  network_mode?: string | null;
  privileged?: boolean | null;
}): PolicyFeature[] {
  const out: PolicyFeature[] = [];
  (body.volumes ?? []).forEach((v, i) => {
    if (v.bind.startsWith('/')) out.push({ rule: 'bind_mounts', value: v.bind, field: `volumes.${i}.bind` });
    else if (v.bind) out.push({ rule: 'volume', value: v.bind, field: `volumes.${i}.bind` });
  });
  (body.devices ?? []).forEach((d, i) => out.push({ rule: 'devices', value: d.host, field: `devices.${i}.host` }));
  (body.sysctls ?? []).forEach((s, i) => out.push({ rule: 'sysctls', value: s.name, field: `sysctls.${i}.name` }));
  for (const c of body.cap_add ?? []) out.push({ rule: 'cap_add', value: c, field: 'cap_add' });
  if (body.network_mode === 'host') out.push({ rule: 'host_network', value: 'host', field: 'network_mode' });
  if (body.network_mode?.startsWith('container:'))
    out.push({ rule: 'namespace', value: body.network_mode.slice('container:'.length), field: 'network_mode' });
  if (body.privileged) out.push({ rule: 'privileged', value: 'true', field: 'privileged' });
  return out;
}
