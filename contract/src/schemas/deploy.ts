import { z } from 'zod';
import { defineRoute } from '../route';
import { parseImageReference } from './image-reference';

export const RESTART_POLICIES = ['always', 'on-failure', 'unless-stopped', 'none'] as const;
export const NETWORK_MODES = ['bridge', 'none', 'host'] as const;
export const CAPABILITIES = [
  'SYS_MODULE',
  'SYS_RAWIO',
  'SYS_PACCT',
  'SYS_ADMIN',
  'SYS_NICE',
  'SYS_RESOURCE',
  'SYS_TIME',
  'SYS_TTY_CONFIG',
  'AUDIT_CONTROL',
  'MAC_ADMIN',
  'MAC_OVERRIDE',
  'NET_ADMIN',
  'SYSLOG',
  'DAC_READ_SEARCH',
  'LINUX_IMMUTABLE',
  'NET_BROADCAST',
  'IPC_LOCK',
  'IPC_OWNER',
  'SYS_PTRACE',
  'SYS_BOOT',
  'LEASE',
  'WAKE_ALARM',
  'BLOCK_SUSPEND',
] as const;

export const CONTAINER_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/;
/** The label that holds a port's display label. Containers made by the original product use `local.yacht.port.*`. */
export const portLabelKey = (hostPort: string | number) => `local.berth.port.${hostPort}`;
export const LEGACY_PORT_LABEL_PREFIX = 'local.yacht.port.';
export function readPortLabel(
  labels: Record<string, string> | null | undefined,
  hostPort: string | number,
): string | null {
  return labels?.[portLabelKey(hostPort)] ?? labels?.[`${LEGACY_PORT_LABEL_PREFIX}${hostPort}`] ?? null;
}

const UNITS: Record<string, number> = { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
/** '512m', '1g', '1000b', '100k', a plain number of bytes; '' or 0 = no limit. Returns null when malformed. */
export function parseMemLimit(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return 0;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  const m = /^(\d+(?:\.\d+)?)\s*([bkmg])?b?$/i.exec(value.trim());
  if (!m) return null;
  const bytes = Math.round(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()]!);
  return Number.isSafeInteger(bytes) ? bytes : null;
}
/** Engine bytes back to the form's notation (edit mode). */
export function formatMemLimit(bytes: number | null | undefined): string {
  if (!bytes) return '';
  for (const [unit, size] of [
    ['g', 1024 ** 3],
    ['m', 1024 ** 2],
    ['k', 1024],
  ] as const) {
    if (bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return `${bytes}b`;
}
export const MIN_MEMORY_BYTES = 6 * 1024 * 1024;

const required = (what: string) => (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null ? `${what} is required.` : `${what} must be text.`;
const text = (what: string, max = 255) =>
  z
    .string({ error: required(what) })
    .trim()
    .min(1, `${what} is required.`)
    .max(max, `${what} is at most ${max} characters.`);

/** A port number given as a number or digits; '' and null mean none. */
function portNumber(what: string, isRequired: boolean) {
  return z
    .union([z.number(), z.string()], { error: `${what} must be a number between 0 and 65535.` })
    .nullish()
    .transform((v, ctx): number | null => {
      const s = typeof v === 'string' ? v.trim() : v;
      if (s === null || s === undefined || s === '') {
        if (isRequired) ctx.addIssue({ code: 'custom', message: `${what} is required.` });
        return null;
      }
      const n = typeof s === 'number' ? s : /^\d+$/.test(s) ? Number(s) : NaN;
      if (!Number.isInteger(n) || n < 0 || n > 65535)
        ctx.addIssue({ code: 'custom', message: `${what} must be a number between 0 and 65535.` });
      return n;
    });
}

/** Null lists count as empty. */
const list = <T extends z.ZodType>(item: T, max = 500) =>
  z
    .array(item)
    .max(max, `At most ${max} entries.`)
    .nullish()
    .transform((v) => v ?? []);

const IP_LITERAL = z.union([z.ipv4(), z.ipv6()]);
/**
 * The host address a port is published on: an IPv4 or IPv6 literal (brackets around IPv6 allowed);
 * '' or null = every interface. Kept exactly, so an app bound to 127.0.0.1 stays loopback-only.
 */
export const hostIpField = z
  .string({ error: 'Host IP must be an IPv4 or IPv6 address.' })
  .trim()
  .max(64, 'Host IP must be an IPv4 or IPv6 address.')
  .nullish()
  .transform((v, ctx): string | null => {
    const ip = (v ?? '').replace(/^\[(.*)\]$/, '$1');
    if (!ip) return null;
    if (!IP_LITERAL.safeParse(ip).success)
      ctx.addIssue({ code: 'custom', message: 'Host IP must be an IPv4 or IPv6 address (empty = all interfaces).' });
    return ip;
  });

export const DeployPort = z.strictObject({
  label: z.string().trim().max(255).nullish(),
  host_ip: hostIpField,
  hport: portNumber('Host port', false),
  cport: portNumber('Container port', true),
  proto: z
    .enum(['tcp', 'udp'], { error: 'Protocol must be tcp or udp.' })
    .nullish()
    .transform((v) => v ?? 'tcp'),
});
export const DeployVolume = z.strictObject({
  /** A host path or a volume name; empty = an anonymous volume (as in Portainer). */
  bind: z
    .string({ error: 'Host path must be text.' })
    .trim()
    .max(4096, 'Host path is at most 4096 characters.')
    .nullish()
    .transform((v) => v ?? ''),
  container: text('Container path', 4096).refine(
    (v) => v.startsWith('/'),
    'Container path must be absolute (start with /).',
  ),
  readonly: z.boolean().optional(),
});
export const DeployEnv = z.strictObject({
  name: text('Variable name').refine(
    (v) => /^[^=\0\r\n]+$/.test(v),
    'Variable name must not contain = or line breaks.',
  ),
  default: z
    .string({ error: required('Value') })
    .min(1, 'Value is required.')
    .max(65536, 'Value is at most 65536 characters.')
    .refine((v) => !v.includes('\0'), 'Value must not contain NUL.'),
  label: z.string().max(255).nullish(),
  description: z.string().max(4096).nullish(),
});
export const DeployDevice = z.strictObject({
  container: text('Container device', 4096),
  host: text('Host device', 4096),
});
export const DeployLabel = z.strictObject({
  label: text('Label', 1024),
  value: z
    .string()
    .max(65536)
    .nullish()
    .transform((v) => v ?? ''),
});
export const DeploySysctl = z.strictObject({ name: text('Sysctl name'), value: text('Sysctl value', 1024) });

export const DeployBody = z
  .strictObject({
    name: text('Name', 128).regex(
      CONTAINER_NAME,
      'Name must start with a letter or digit and contain only letters, digits, _ . or - (at least 2 characters).',
    ),
    image: text('Image', 512).superRefine((v, ctx) => {
      const ref = parseImageReference(v);
      if ('error' in ref) ctx.addIssue({ code: 'custom', message: ref.error });
    }),
    restart_policy: z.enum(RESTART_POLICIES, {
      error: (iss) =>
        iss.input === undefined || iss.input === null || iss.input === ''
          ? 'Restart Policy is required.'
          : 'Restart Policy must be always, on-failure, unless-stopped or none.',
    }),
    network: z
      .string()
      .trim()
      .max(255)
      .nullish()
      .transform((v) => v || null),
    network_mode: z
      .union([z.enum(NETWORK_MODES), z.literal('')], { error: 'Network Mode must be bridge, none or host.' })
      .nullish()
      .transform((v) => v || null),
    ports: list(DeployPort),
    volumes: list(DeployVolume),
    env: list(DeployEnv, 1000),
    command: list(
      z.string({ error: 'Command entries are required.' }).min(1, 'Command entries are required.').max(65536),
    ),
    devices: list(DeployDevice),
    labels: list(DeployLabel),
    sysctls: list(DeploySysctl),
    cap_add: list(
      z.enum(CAPABILITIES, {
        error: (iss) => `Unknown capability ${String(iss.input)}; choose one of ${CAPABILITIES.join(', ')}.`,
      }),
    ),
    cpus: z
      .union([z.number(), z.string()], { error: 'CPU cores must be a number such as 0.5 or 2.' })
      .nullish()
      .transform((v, ctx): number | null => {
        const s = typeof v === 'string' ? v.trim() : v;
        if (s === null || s === undefined || s === '') return null;
        const n = Number(s);
        if (!Number.isFinite(n) || n < 0 || n > 1024)
          ctx.addIssue({ code: 'custom', message: 'CPU cores must be a number such as 0.5 or 2.' });
        return n;
      }),
    /** Full access to the host's devices (the role policy judges it like any other privilege). */
    privileged: z
      .boolean({ error: 'Privileged must be true or false.' })
      .nullish()
      .transform((v) => v ?? false),
    /** Keep stdin open and give the app a terminal (docker run -it), for images whose command is a shell. */
    interactive: z
      .boolean({ error: 'Interactive must be true or false.' })
      .nullish()
      .transform((v) => v ?? false),
    hostname: z
      .string({ error: 'Hostname must be text.' })
      .trim()
      .max(253, 'Hostname is at most 253 characters.')
      .regex(
        /^$|^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/,
        'Hostname must be letters, digits, - and dots (a DNS name).',
      )
      .nullish()
      .transform((v) => v || null),
    mem_limit: z
      .union([z.string(), z.number()], {
        error: 'Memory limit must be a number with b, k, m or g (1000b, 100k, 10m, 1g).',
      })
      .nullish()
      .transform((v, ctx): number => {
        const bytes = parseMemLimit(v);
        if (bytes === null)
          ctx.addIssue({
            code: 'custom',
            message: 'Memory limit must be a number with b, k, m or g (1000b, 100k, 10m, 1g).',
          });
        else if (bytes > 0 && bytes < MIN_MEMORY_BYTES)
          ctx.addIssue({ code: 'custom', message: 'Memory limit must be at least 6m (the engine minimum).' });
        return bytes ?? 0;
      }),
    edit: z
      .boolean()
      .nullish()
      .transform((v) => v ?? false),
    id: z
      .string()
      .trim()
      .max(255)
      .nullish()
      .transform((v) => v || null),
  })
  .superRefine((b, ctx) => {
    if (b.network && b.network_mode) {
      ctx.addIssue({
        code: 'custom',
        path: ['network_mode'],
        message: 'Network and Network Mode are mutually exclusive; choose one.',
      });
    }
    if ((b.network_mode === 'host' || b.network === 'host') && b.ports.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['ports'],
        message: 'Ports cannot be published with host networking; remove them.',
      });
    }
    if (b.edit && !b.id)
      ctx.addIssue({ code: 'custom', path: ['id'], message: 'The app to edit (id) is required in edit mode.' });
  });
export type DeployBody = z.input<typeof DeployBody>;
export type DeployRequest = z.output<typeof DeployBody>;

export const DeployResult = z.object({ id: z.string(), name: z.string(), status: z.string() });
export type DeployResult = z.infer<typeof DeployResult>;

export const deployApi = {
  deploy: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/apps/deploy',
    scope: 'environment',
    tag: 'apps',
    summary:
      'Create and start an app; with edit=true replace the app `id` safely (old one kept until the new one runs)',
    body: DeployBody,
    response: DeployResult,
  }),
};
