import { z } from 'zod';
import { PROJECT_NAME_PATTERN, PROJECT_NAME_RULE } from './project';

/** Swarm objects are addressed by name or full id: letters, digits, _ . - (nothing that reshapes an engine URL). */
const SWARM_REF = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}$/;
export const SwarmRef = z
  .string()
  .regex(SWARM_REF, 'Use a name or id: letters, digits, _ . - (starting with a letter or digit).');
/** Service, config and secret names as the engine accepts them. */
export const SwarmName = z
  .string()
  .trim()
  .min(1, 'Name is required.')
  .max(63, 'At most 63 characters.')
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/, 'Use letters, digits, _ . - (starting with a letter or digit).');
const Labels = z.record(z.string().min(1).max(255), z.string().max(4096));
const Timestamp = z.string();

export const SwarmSummary = z.object({
  id: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  nodeId: z.string(),
  nodeAddr: z.string(),
  managers: z.number().int(),
  nodes: z.number().int(),
  /** Default address pools for overlay networks and the VXLAN port. */
  defaultAddrPool: z.array(z.string()),
  dataPathPort: z.number().int().nullable(),
  raft: z.object({
    snapshotInterval: z.number(),
    electionTick: z.number(),
    heartbeatTick: z.number(),
    logEntriesForSlowFollowers: z.number(),
  }),
  dispatcherHeartbeatSeconds: z.number(),
  taskHistoryRetentionLimit: z.number(),
  autoLockManagers: z.boolean(),
});
export type SwarmSummary = z.infer<typeof SwarmSummary>;

export const SwarmNode = z.object({
  id: z.string(),
  version: z.number().int(),
  hostname: z.string(),
  role: z.enum(['manager', 'worker']),
  availability: z.enum(['active', 'pause', 'drain']),
  state: z.string(),
  addr: z.string(),
  leader: z.boolean(),
  engineVersion: z.string(),
  labels: z.record(z.string(), z.string()),
  nanoCpus: z.number(),
  memoryBytes: z.number(),
});
export type SwarmNode = z.infer<typeof SwarmNode>;

export const NodeUpdateBody = z.strictObject({
  availability: z.enum(['active', 'pause', 'drain']).optional(),
  role: z.enum(['manager', 'worker']).optional(),
  labels: Labels.optional(),
});
export type NodeUpdateBody = z.input<typeof NodeUpdateBody>;

export const ServicePort = z.object({
  target: z.number().int().min(1).max(65535),
  published: z.number().int().min(1).max(65535).nullable(),
  protocol: z.enum(['tcp', 'udp', 'sctp']),
  mode: z.enum(['ingress', 'host']),
});
export type ServicePort = z.infer<typeof ServicePort>;

export const SwarmService = z.object({
  id: z.string(),
  version: z.number().int(),
  name: z.string(),
  image: z.string(),
  mode: z.enum(['replicated', 'global']),
  replicas: z.object({ running: z.number().int(), desired: z.number().int() }),
  ports: z.array(ServicePort),
  /** The engine's update (or rollback) state, e.g. `updating`, `completed`, `rollback_completed`. */
  updateStatus: z.object({ state: z.string(), message: z.string() }).nullable(),
  stack: z.string().nullable(),
  labels: z.record(z.string(), z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type SwarmService = z.infer<typeof SwarmService>;

const Mount = z.strictObject({
  type: z.enum(['volume', 'bind', 'tmpfs']).default('volume'),
  source: z.string().max(4096).default(''),
  target: z
    .string()
    .min(1, 'A mount needs a target path.')
    .max(4096)
    .regex(/^\//, 'The target must be an absolute path.'),
  readOnly: z.boolean().default(false),
});
const RestartPolicy = z.strictObject({
  condition: z.enum(['none', 'on-failure', 'any']).default('any'),
  delaySeconds: z.number().min(0).max(86400).default(5),
  maxAttempts: z.number().int().min(0).max(10000).default(0),
  /** How long after a restart the task is watched before counting the next attempt; 0 = unbounded. */
  windowSeconds: z.number().min(0).max(86400).default(0),
});
const UpdatePolicy = z.strictObject({
  /** Tasks updated at once; 0 = all at once. */
  parallelism: z.number().int().min(0).max(1000).default(1),
  delaySeconds: z.number().min(0).max(86400).default(0),
  /** How long each updated task is watched for failure. */
  monitorSeconds: z.number().min(0.001).max(86400).default(5),
  failureAction: z.enum(['pause', 'continue', 'rollback']).default('pause'),
  order: z.enum(['stop-first', 'start-first']).default('stop-first'),
});
const Resources = z.strictObject({
  cpuLimit: z.number().min(0).max(1024).nullish(),
  memoryLimitBytes: z.number().int().min(0).nullish(),
  cpuReservation: z.number().min(0).max(1024).nullish(),
  memoryReservationBytes: z.number().int().min(0).nullish(),
});
const EnvName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, 'Use letters, digits, _ . - (not starting with a digit).');

/** The form's fields; each one given replaces the service's (so they carry no defaults here). */
const ServiceFields = z.strictObject({
  image: z.string().trim().min(1, 'Image is required.').max(512),
  replicas: z.number().int().min(0).max(1000),
  /** Arguments replacing the image's command. */
  command: z.array(z.string().max(4096)).max(256),
  ports: z
    .array(
      ServicePort.extend({
        published: z.number().int().min(1).max(65535).nullish(),
        protocol: z.enum(['tcp', 'udp', 'sctp']).default('tcp'),
        mode: z.enum(['ingress', 'host']).default('ingress'),
      }),
    )
    .max(100),
  env: z.record(EnvName, z.string().max(65536)),
  mounts: z.array(Mount).max(100),
  networks: z.array(SwarmRef).max(20),
  constraints: z
    .array(
      z
        .string()
        .min(1)
        .max(512)
        .regex(/(==|!=)/, 'A constraint compares with == or !=, e.g. node.role==manager.'),
    )
    .max(50),
  secrets: z.array(SwarmName).max(50),
  configs: z
    .array(
      z.strictObject({
        name: SwarmName,
        target: z.string().regex(/^\//, 'The target must be an absolute path.').max(4096),
      }),
    )
    .max(50),
  restartPolicy: RestartPolicy,
  updatePolicy: UpdatePolicy,
  labels: Labels,
  resources: Resources,
});

/** The service form (create); omitted fields get the engine's defaults (1 replica). */
export const ServiceCreateBody = ServiceFields.partial().extend({
  name: SwarmName,
  image: ServiceFields.shape.image,
  mode: z.enum(['replicated', 'global']).default('replicated'),
});
export type ServiceCreateBody = z.input<typeof ServiceCreateBody>;

/**
 * An edit: the fields given replace the service's; `version` is the index the form was read at,
 * so a change made meanwhile by someone else is a 409 instead of being overwritten.
 */
export const ServiceUpdateBody = ServiceFields.partial().extend({ version: z.number().int().min(0) });
export type ServiceUpdateBody = z.input<typeof ServiceUpdateBody>;

export const ServiceDetail = SwarmService.extend({
  command: z.array(z.string()),
  /** Variable names only: values are not sent back (they may be secrets). */
  envNames: z.array(z.string()),
  mounts: z.array(z.object({ type: z.string(), source: z.string(), target: z.string(), readOnly: z.boolean() })),
  networks: z.array(z.string()),
  constraints: z.array(z.string()),
  secrets: z.array(z.string()),
  configs: z.array(z.object({ name: z.string(), target: z.string() })),
  restartPolicy: z.object({
    condition: z.string(),
    delaySeconds: z.number(),
    maxAttempts: z.number(),
    windowSeconds: z.number(),
  }),
  updatePolicy: z.object({
    parallelism: z.number(),
    delaySeconds: z.number(),
    monitorSeconds: z.number(),
    failureAction: z.string(),
    order: z.string(),
  }),
  resources: z.object({
    cpuLimit: z.number().nullable(),
    memoryLimitBytes: z.number().nullable(),
    cpuReservation: z.number().nullable(),
    memoryReservationBytes: z.number().nullable(),
  }),
  /** Whether the engine keeps a previous spec to roll back to. */
  canRollback: z.boolean(),
});
export type ServiceDetail = z.infer<typeof ServiceDetail>;

export const SwarmTask = z.object({
  id: z.string(),
  slot: z.number().int().nullable(),
  nodeId: z.string().nullable(),
  state: z.string(),
  desiredState: z.string(),
  message: z.string(),
  error: z.string().nullable(),
  image: z.string(),
  containerId: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type SwarmTask = z.infer<typeof SwarmTask>;

export const StackName = z.string().regex(PROJECT_NAME_PATTERN, PROJECT_NAME_RULE);
export const SwarmStack = z.object({
  name: z.string(),
  services: z.number().int(),
  running: z.number().int(),
  desired: z.number().int(),
  /** Whether Berth holds the stack file (stacks deployed elsewhere have none). */
  hasFile: z.boolean(),
});
export type SwarmStack = z.infer<typeof SwarmStack>;
export const StackDetail = SwarmStack.extend({ content: z.string().nullable(), serviceList: z.array(SwarmService) });
export type StackDetail = z.infer<typeof StackDetail>;
export const StackDeployBody = z.strictObject({
  name: StackName,
  content: z.string().min(1, 'The stack file is empty.'),
});
export const StackRedeployBody = z.strictObject({ content: z.string().min(1, 'The stack file is empty.') });
/** What `docker stack deploy` printed. */
export const StackDeployed = z.object({ name: z.string(), output: z.string() });

export const SwarmObject = z.object({
  id: z.string(),
  name: z.string(),
  labels: z.record(z.string(), z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /** Names of the services that use it (deleting it is refused while any does). */
  usedBy: z.array(z.string()),
});
export type SwarmObject = z.infer<typeof SwarmObject>;
/** A config or secret to create; `data` is text (a secret's is never sent back). */
export const SwarmObjectCreateBody = z.strictObject({
  name: SwarmName,
  data: z
    .string()
    .min(1, 'The value is empty.')
    .max(500 * 1024, 'At most 500 KiB.'),
  labels: Labels.default({}),
});
export type SwarmObjectCreateBody = z.input<typeof SwarmObjectCreateBody>;
