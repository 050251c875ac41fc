import { z } from 'zod';
import { defineRoute, EnvironmentId } from '../route';

/** How Berth reaches an environment's engine. */
export const EnvironmentKind = z.enum(['socket', 'tcp', 'ssh', 'agent']);
export type EnvironmentKind = z.infer<typeof EnvironmentKind>;

export const SwarmRole = z.enum(['none', 'worker', 'manager']);
export type SwarmRole = z.infer<typeof SwarmRole>;

/** What the environment's engine answered at its last check (all null but `reachable` and `error` while it is away). */
export const EnvironmentStatus = z.object({
  reachable: z.boolean(),
  version: z.string().nullable(),
  apiVersion: z.string().nullable(),
  os: z.string().nullable(),
  arch: z.string().nullable(),
  containers: z.object({ running: z.number().int(), stopped: z.number().int() }).nullable(),
  swarm_role: SwarmRole.nullable(),
  error: z.string().nullable(),
  checked_at: z.string().nullable(),
});
export type EnvironmentStatus = z.infer<typeof EnvironmentStatus>;

/** An agent environment's agent: whether it enrolled and is connected, since when, and why not. */
export const EnvironmentAgent = z.object({
  enrolled: z.boolean(),
  connected: z.boolean(),
  since: z.string().nullable(),
  reason: z.string().nullable(),
});
export type EnvironmentAgent = z.infer<typeof EnvironmentAgent>;

/** An environment as every read shows it: secrets (client key, SSH key, passphrase) are never part of it. */
export const Environment = z.object({
  id: EnvironmentId,
  name: z.string(),
  url: z.string(),
  kind: EnvironmentKind,
  /** TLS client material is stored (CA, certificate and key; the key is write-only). */
  tls: z.boolean(),
  ssh: z.object({ user: z.string(), host_key: z.string().nullable(), passphrase: z.boolean() }).nullable(),
  /** Set for an agent environment (kind `agent`). */
  agent: EnvironmentAgent.nullable(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  status: EnvironmentStatus,
});
export type Environment = z.infer<typeof Environment>;

const pem = (what: string) =>
  z
    .string({ error: `${what} is required.` })
    .trim()
    .min(1, `${what} is required.`)
    .max(64 * 1024, `${what} is at most 64 KiB.`)
    .regex(
      /-----BEGIN [A-Z0-9 ]+-----[\s\S]+-----END [A-Z0-9 ]+-----/,
      `${what} must be PEM text (-----BEGIN …-----).`,
    );

export const EnvironmentTls = z.strictObject({
  ca: pem('The CA certificate'),
  cert: pem('The client certificate'),
  key: pem('The client key'),
});
export type EnvironmentTls = z.infer<typeof EnvironmentTls>;

export const EnvironmentSsh = z.strictObject({
  user: z
    .string()
    .trim()
    .regex(/^[a-z_][a-z0-9_.-]{0,31}$/i, 'The SSH user is 1-32 letters, digits, dots, dashes or underscores.')
    .optional(),
  private_key: z
    .string({ error: 'The SSH private key is required.' })
    .trim()
    .min(1, 'The SSH private key is required.')
    .max(64 * 1024, 'The SSH private key is at most 64 KiB.')
    .regex(
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/,
      'The SSH private key must be a private key file (-----BEGIN … PRIVATE KEY-----).',
    ),
  passphrase: z.string().max(1024).optional(),
  /** The server's public host key (`ssh-ed25519 AAAA…`); without it the key seen on the first connection is kept. */
  host_key: z
    .string()
    .trim()
    .regex(
      /^(ssh-[a-z0-9-]+|ecdsa-sha2-nistp\d+) [A-Za-z0-9+/]+=*( .*)?$/,
      'The host key looks like "ssh-ed25519 AAAA…" (a line of known_hosts without the host name, or the server\'s .pub file).',
    )
    .optional(),
});
export type EnvironmentSsh = z.infer<typeof EnvironmentSsh>;

const ENVIRONMENT_URL = /^(unix:\/\/\/.+|tcp:\/\/[^/\s]+:\d{1,5}\/?|ssh:\/\/([^@/\s]+@)?[^/\s:]+(:\d{1,5})?\/?)$/;

const environmentFields = {
  name: z
    .string({ error: 'Name is required.' })
    .trim()
    .min(1, 'Name is required.')
    .max(100, 'Name is at most 100 characters.'),
  url: z
    .string({ error: 'URL is required.' })
    .trim()
    .regex(
      ENVIRONMENT_URL,
      'The URL is tcp://host:port (with TLS), ssh://user@host[:port] or unix:///path/to/docker.sock.',
    ),
  tls: EnvironmentTls.optional(),
  ssh: EnvironmentSsh.optional(),
  /** Store the environment even when its engine does not answer now. */
  save_unreachable: z.boolean().optional(),
};

export const NewEnvironmentBody = z.strictObject({
  /** A slug; made from the name when absent. */
  id: EnvironmentId.optional(),
  ...environmentFields,
});
export type NewEnvironmentBody = z.infer<typeof NewEnvironmentBody>;

/** Only the fields given change; TLS or SSH material given replaces the stored one whole. */
export const EnvironmentPatchBody = z.strictObject({
  name: environmentFields.name.optional(),
  url: environmentFields.url.optional(),
  tls: EnvironmentTls.partial().optional(),
  ssh: EnvironmentSsh.partial().optional(),
  save_unreachable: environmentFields.save_unreachable,
});
export type EnvironmentPatchBody = z.infer<typeof EnvironmentPatchBody>;

export const EnvironmentParams = z.object({ env: EnvironmentId });

export const NewAgentEnvironmentBody = z.strictObject({
  id: EnvironmentId.optional(),
  name: environmentFields.name,
});
export type NewAgentEnvironmentBody = z.infer<typeof NewAgentEnvironmentBody>;

/**
 * A one-time enrolment token, shown once (Berth keeps only its hash), with the commands that
 * start an agent with it: `docker run` and a compose file.
 */
export const AgentEnrolment = z.object({
  environment: Environment,
  token: z.string(),
  docker_run: z.string(),
  compose: z.string(),
});
export type AgentEnrolment = z.infer<typeof AgentEnrolment>;

export const environmentApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/environments',
    scope: 'global',
    tag: 'environments',
    summary: 'Every environment with its engine status',
    role: 'viewer',
    response: z.array(Environment),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/environments',
    scope: 'global',
    tag: 'environments',
    summary: 'Add an environment (its engine is tried first)',
    role: 'admin',
    body: NewEnvironmentBody,
    response: Environment,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/environments/{env}',
    scope: 'global',
    tag: 'environments',
    summary: 'One environment with its status',
    role: 'viewer',
    params: EnvironmentParams,
    response: Environment,
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/api/environments/{env}',
    scope: 'global',
    tag: 'environments',
    summary: 'Rename an environment or change how it is reached',
    role: 'admin',
    params: EnvironmentParams,
    body: EnvironmentPatchBody,
    response: Environment,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/environments/{env}',
    scope: 'global',
    tag: 'environments',
    summary: 'Remove an environment (its engine is left alone)',
    role: 'admin',
    params: EnvironmentParams,
    response: Environment,
  }),
  createAgent: defineRoute({
    method: 'POST',
    path: '/api/environments/agents',
    scope: 'global',
    tag: 'environments',
    summary: 'Add an agent environment: a one-time enrolment token and the commands to start its agent',
    role: 'admin',
    body: NewAgentEnvironmentBody,
    response: AgentEnrolment,
  }),
  agentToken: defineRoute({
    method: 'POST',
    path: '/api/environments/{env}/agent/token',
    scope: 'global',
    tag: 'environments',
    summary: 'A new enrolment token for an agent environment (its current agent is revoked)',
    role: 'admin',
    params: EnvironmentParams,
    response: AgentEnrolment,
  }),
  agentRevoke: defineRoute({
    method: 'POST',
    path: '/api/environments/{env}/agent/revoke',
    scope: 'global',
    tag: 'environments',
    summary: "Revoke an agent's identity: its connection is cut at once and it cannot connect again",
    role: 'admin',
    params: EnvironmentParams,
    response: Environment,
  }),
  agentConnect: defineRoute({
    method: 'GET',
    path: '/api/agent/connect',
    scope: 'global',
    tag: 'environments',
    summary: 'The WebSocket an agent dials (it authenticates in its first messages, with its key or enrolment token)',
    open: true,
    response: z.unknown(),
  }),
  test: defineRoute({
    method: 'POST',
    path: '/api/environments/{env}/test',
    scope: 'global',
    tag: 'environments',
    summary: "Check the environment's engine now",
    role: 'operator',
    params: EnvironmentParams,
    response: EnvironmentStatus,
  }),
};
