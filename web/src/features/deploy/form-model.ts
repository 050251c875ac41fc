import { DeployBody, type TemplateItem } from '@berth/contract';

export interface PortRow {
  label: string;
  /** '' = every interface. */
  host_ip: string;
  hport: string;
  cport: string;
  proto: 'tcp' | 'udp';
}
export interface VolumeRow {
  bind: string;
  container: string;
  readonly: boolean;
}
export interface EnvRow {
  name: string;
  default: string;
  label: string;
  description: string;
  /** A template's choices for the value (shown as a select; not sent). */
  options?: { label: string; value: string }[];
}
export interface DeviceRow {
  container: string;
  host: string;
}
export interface LabelRow {
  label: string;
  value: string;
}
export interface SysctlRow {
  name: string;
  value: string;
}

/** The deploy form as typed: every field a string (or a list of rows of strings) so inputs stay controlled. */
export interface DeployFormValues {
  name: string;
  image: string;
  restart_policy: string;
  network: string;
  network_mode: string;
  ports: PortRow[];
  volumes: VolumeRow[];
  env: EnvRow[];
  command: string[];
  devices: DeviceRow[];
  labels: LabelRow[];
  sysctls: SysctlRow[];
  cap_add: string[];
  cpus: string;
  mem_limit: string;
  privileged: boolean;
  interactive: boolean;
  hostname: string;
}

export const emptyRow = {
  ports: (): PortRow => ({ label: '', host_ip: '', hport: '', cport: '', proto: 'tcp' }),
  volumes: (): VolumeRow => ({ bind: '', container: '', readonly: false }),
  env: (): EnvRow => ({ name: '', default: '', label: '', description: '' }),
  devices: (): DeviceRow => ({ container: '', host: '' }),
  labels: (): LabelRow => ({ label: '', value: '' }),
  sysctls: (): SysctlRow => ({ name: '', value: '' }),
};

export function emptyDeployValues(): DeployFormValues {
  return {
    name: '',
    image: '',
    restart_policy: '',
    network: '',
    network_mode: '',
    ports: [],
    volumes: [],
    env: [],
    command: [],
    devices: [],
    labels: [],
    sysctls: [],
    cap_add: [],
    cpus: '',
    mem_limit: '',
    privileged: false,
    interactive: false,
    hostname: '',
  };
}

/** A catalogue item as the form's starting point; `!variables` stay as written (the server substitutes them). */
export function fromTemplateItem(item: TemplateItem): DeployFormValues {
  return {
    name: item.name,
    image: item.image,
    restart_policy: item.restart_policy ?? 'unless-stopped',
    network: item.network,
    // Both set is refused on deploy; the explicit network wins, as it names a real network.
    network_mode: item.network ? '' : item.network_mode,
    ports: item.ports.map((p) => ({
      label: p.label ?? '',
      host_ip: p.host_ip ?? '',
      hport: p.hport ?? '',
      cport: p.cport,
      proto: p.proto,
    })),
    volumes: item.volumes.map((v) => ({ bind: v.bind, container: v.container, readonly: v.readonly ?? false })),
    env: item.env.map((e) => ({
      name: e.name,
      default: e.default,
      label: e.label ?? '',
      description: e.description ?? '',
      ...(e.options.length ? { options: e.options } : {}),
    })),
    command: item.command ?? [],
    devices: item.devices.map((d) => ({ ...d })),
    labels: item.labels.map((l) => ({ ...l })),
    sysctls: item.sysctls.map((s) => ({ ...s })),
    cap_add: [...item.cap_add],
    cpus: item.cpus === null ? '' : String(item.cpus),
    mem_limit: item.mem_limit ?? '',
    privileged: item.privileged,
    interactive: item.interactive,
    hostname: item.hostname,
  };
}

export const isHostNetworking = (v: Pick<DeployFormValues, 'network' | 'network_mode'>) =>
  v.network === 'host' || v.network_mode === 'host';

/** The request body; ports are left out under host networking, where the form hides them. */
export function toPayload(v: DeployFormValues, editId?: string): DeployBody {
  return {
    name: v.name,
    image: v.image,
    restart_policy: v.restart_policy as DeployBody['restart_policy'],
    network: v.network || null,
    network_mode: (v.network_mode || null) as DeployBody['network_mode'],
    ports: isHostNetworking(v)
      ? []
      : v.ports.map((p) => ({
          label: p.label || null,
          host_ip: p.host_ip || null,
          hport: p.hport,
          cport: p.cport,
          proto: p.proto,
        })),
    volumes: v.volumes.map(({ bind, container, readonly }) =>
      readonly ? { bind, container, readonly } : { bind, container },
    ),
    env: v.env.map((e) => ({
      name: e.name,
      default: e.default,
      label: e.label || null,
      description: e.description || null,
    })),
    command: v.command,
    devices: v.devices,
    labels: v.labels,
    sysctls: v.sysctls,
    cap_add: v.cap_add as DeployBody['cap_add'],
    cpus: v.cpus,
    mem_limit: v.mem_limit,
    privileged: v.privileged,
    interactive: v.interactive,
    hostname: v.hostname,
    ...(editId ? { edit: true, id: editId } : {}),
  };
}

/** Which fields each step holds (step 4 includes the Advanced panel). */
export const STEP_FIELDS: readonly (readonly (keyof DeployFormValues)[])[] = [
  ['name', 'image', 'restart_policy'],
  ['network', 'network_mode', 'ports'],
  ['volumes'],
  [
    'env',
    'command',
    'devices',
    'labels',
    'sysctls',
    'cap_add',
    'cpus',
    'mem_limit',
    'privileged',
    'interactive',
    'hostname',
  ],
];
export const ADVANCED_FIELDS: readonly (keyof DeployFormValues)[] = [
  'command',
  'devices',
  'labels',
  'sysctls',
  'cap_add',
  'cpus',
  'mem_limit',
  'privileged',
  'interactive',
  'hostname',
];

export type DeployErrors = Record<string, string>;

/**
 * The contract's deploy rules (spec section 5) applied to the form, keyed by form path
 * (`ports.0.cport`), so the browser shows exactly what the server would refuse.
 */
export function validateDeploy(values: DeployFormValues): DeployErrors {
  const parsed = DeployBody.safeParse(toPayload(values));
  const errors: DeployErrors = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    // A capability error belongs to the one multiselect, not to an entry of it.
    const key = issue.path[0] === 'cap_add' ? 'cap_add' : issue.path.join('.');
    errors[key] ??= issue.message;
  }
  return errors;
}

const fieldOf = (key: string) => key.split('.')[0] as keyof DeployFormValues;

export const hasErrorsIn = (errors: DeployErrors, fields: readonly (keyof DeployFormValues)[]) =>
  Object.keys(errors).some((k) => fields.includes(fieldOf(k)));

/** The first step with an invalid field, or -1. */
export function firstInvalidStep(errors: DeployErrors): number {
  return STEP_FIELDS.findIndex((fields) => hasErrorsIn(errors, fields));
}
