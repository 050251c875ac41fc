import { z } from 'zod';
import { defineRoute, EnvironmentId } from '../route';

/**
 * What a non-admin may put into a container on one environment. Docker gives no separation of
 * its own: whoever can bind-mount a host path, run privileged or join the host's namespaces is
 * root on that host. Admins are never restricted; these rules bind operators (viewers create
 * nothing; `viewer_files` is the one rule for viewers: whether they read files). One judge
 * (policy-judge.ts) applies them on every path that makes a container.
 */
export const POLICY_RULES = [
  'bind_mounts',
  'privileged',
  'cap_add',
  'host_pid',
  'host_ipc',
  'host_uts',
  'host_network',
  'host_userns',
  'devices',
  'sysctls',
  'security_opt',
  'cgroup_parent',
  'volumes_from',
  'terminal_user',
  'viewer_files',
] as const;
export type PolicyRule = (typeof POLICY_RULES)[number];

/** Each rule's name as the UI shows it and one line on what allowing it risks. */
export const POLICY_RULE_INFO: Record<PolicyRule, { label: string; risk: string }> = {
  bind_mounts: {
    label: 'Bind mounts',
    risk: 'A container reads and writes the host path it mounts; mounting / or /etc is root on the host.',
  },
  privileged: {
    label: 'Privileged mode',
    risk: 'A privileged container can load kernel modules and mount the host disk.',
  },
  cap_add: {
    label: 'Added capabilities',
    risk: 'Capabilities such as SYS_ADMIN or SYS_PTRACE are the steps from a container to the host.',
  },
  host_pid: { label: 'Host PID namespace', risk: 'The container sees and can signal every process of the host.' },
  host_ipc: { label: 'Host IPC namespace', risk: "The container shares the host's shared memory and semaphores." },
  host_uts: { label: 'Host UTS namespace', risk: "The container can change the host's hostname." },
  host_network: {
    label: 'Host network',
    risk: "The container listens on the host's addresses and reaches services bound to its loopback.",
  },
  host_userns: {
    label: 'Host user namespace',
    risk: 'Turns off user-namespace remapping: root inside is root outside.',
  },
  devices: { label: 'Devices', risk: "A mapped device (a disk, /dev/mem) gives the container the host's hardware." },
  sysctls: { label: 'Sysctls', risk: 'Kernel parameters changed from inside a container.' },
  security_opt: {
    label: 'Security options that disable confinement',
    risk: 'apparmor=unconfined, seccomp=unconfined, label=disable and systempaths=unconfined remove the walls around the container.',
  },
  cgroup_parent: {
    label: 'Cgroup parent',
    risk: "Places the container outside Docker's resource limits, under any cgroup of the host.",
  },
  volumes_from: {
    label: 'Volumes from another container',
    risk: 'Inherits every mount of a container someone else made, bind mounts included.',
  },
  terminal_user: {
    label: 'Terminal user override',
    risk: 'A terminal as user 0 is root in the container, whatever user the image runs as.',
  },
  viewer_files: {
    label: 'Viewers browse files',
    risk: 'Viewers list and download the files of apps and volumes, whose configuration files often hold the passwords and keys that viewers never see as environment values.',
  },
};

const Switch = z.enum(['deny', 'allow']);
const HostPath = z
  .string()
  .trim()
  .max(4096)
  .regex(/^\/./, 'An allowed path is an absolute host path other than /, such as /srv/media.');
const Capability = z
  .string()
  .trim()
  .regex(/^(CAP_)?[A-Z_]{2,40}$/, 'A capability is written like NET_ADMIN.')
  .transform((c) => c.replace(/^CAP_/, ''));

/** An environment's policy; every field has the default of a new install (safe: nothing widened). */
export const EnvironmentPolicy = z.strictObject({
  /** `allowlist`: only paths under bind_allowlist (empty at first, so none); `allow`: any path but the always-refused ones. */
  bind_mounts: z.enum(['deny', 'allowlist', 'allow']).default('allowlist'),
  bind_allowlist: z.array(HostPath).max(100).default([]),
  privileged: Switch.default('deny'),
  /** `deny` still lets the capabilities in cap_add_allowlist through. */
  cap_add: Switch.default('deny'),
  cap_add_allowlist: z.array(Capability).max(50).default([]),
  host_pid: Switch.default('deny'),
  host_ipc: Switch.default('deny'),
  host_uts: Switch.default('deny'),
  host_network: Switch.default('deny'),
  host_userns: Switch.default('deny'),
  devices: Switch.default('deny'),
  sysctls: Switch.default('deny'),
  security_opt: Switch.default('deny'),
  cgroup_parent: Switch.default('deny'),
  volumes_from: Switch.default('deny'),
  terminal_user: Switch.default('deny'),
  /** The one rule that binds viewers (operators and admins always read files). */
  viewer_files: Switch.default('deny'),
});
export type EnvironmentPolicy = z.output<typeof EnvironmentPolicy>;
export type EnvironmentPolicyBody = z.input<typeof EnvironmentPolicy>;
export const DEFAULT_POLICY: EnvironmentPolicy = EnvironmentPolicy.parse({});

export const PolicyAnswer = z.object({
  environment: z.string(),
  policy: EnvironmentPolicy,
  /** Host paths no operator may mount (or mount a parent of), whatever the policy: Berth's data, the engine's socket and state, the host's system folders. */
  always_refused: z.array(z.object({ path: z.string(), what: z.string() })),
  /** Named volumes no operator may mount whatever the policy: the ones Berth's own container mounts (its database and keys). */
  protected_volumes: z.array(z.object({ name: z.string(), what: z.string() })),
  /** Berth's own container (name and id): no operator may take its volumes (`volumes_from`). */
  protected_containers: z.array(z.string()),
  /** Null while the environment runs on the defaults. */
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable(),
});
export type PolicyAnswer = z.infer<typeof PolicyAnswer>;

const PolicyParams = z.object({ env: EnvironmentId });

export const policyApi = {
  get: defineRoute({
    method: 'GET',
    path: '/api/environments/{env}/policy',
    scope: 'global',
    tag: 'environments',
    summary:
      'What operators may put into containers on this environment (readable by operators, so forms can mark a refused field before it is sent)',
    role: 'operator',
    params: PolicyParams,
    response: PolicyAnswer,
  }),
  put: defineRoute({
    method: 'PUT',
    path: '/api/environments/{env}/policy',
    scope: 'global',
    tag: 'environments',
    summary: "Replace the environment's policy for operators (admins are never restricted)",
    role: 'admin',
    params: PolicyParams,
    body: EnvironmentPolicy,
    response: PolicyAnswer,
  }),
};
