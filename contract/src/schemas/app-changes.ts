import { z } from 'zod';
import { defineRoute } from '../route';
import { App, AppName, AppNameParams } from './app';
import { MIN_MEMORY_BYTES } from './deploy';
import { ImageReferenceString } from './image';
import { NetworkName } from './network';

/** The engine's restart policy names (`docker update --restart`). */
export const ENGINE_RESTART_POLICIES = ['no', 'always', 'unless-stopped', 'on-failure'] as const;
export type EngineRestartPolicy = (typeof ENGINE_RESTART_POLICIES)[number];

export const AppRenameBody = z.strictObject({ new_name: AppName });

export const RestartPolicyBody = z.strictObject({
  name: z.enum(ENGINE_RESTART_POLICIES, {
    error: () => `Unknown restart policy; use one of: ${ENGINE_RESTART_POLICIES.join(', ')}.`,
  }),
  /** Only with `on-failure`: how many restarts before the engine gives up (0 = no limit). */
  maximum_retry_count: z.number().int().min(0).max(1_000_000).optional(),
});

const bytes = (what: string) => z.number({ error: `${what} must be a number of bytes.` }).int();

/**
 * What changes in place (the engine's container update); a field left out stays as it is.
 * 0 lifts a limit (cpus, memory, cpu_shares); memory_swap -1 = unlimited swap; pids_limit 0 or -1 = unlimited.
 */
export const AppResourcesBody = z
  .strictObject({
    cpus: z.number().min(0, 'cpus cannot be negative.').max(1024).optional(),
    memory: bytes('memory')
      .refine((v) => v === 0 || v >= MIN_MEMORY_BYTES, 'memory is 0 (no limit) or at least 6 MiB.')
      .optional(),
    memory_swap: bytes('memory_swap').min(-1, 'memory_swap is -1 (unlimited) or a number of bytes.').optional(),
    cpu_shares: z.number().int().min(0).max(262_144).optional(),
    pids_limit: z.number().int().min(-1).optional(),
    restart_policy: RestartPolicyBody.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Give at least one value to change.')
  .refine(
    (b) => b.restart_policy?.maximum_retry_count === undefined || b.restart_policy.name === 'on-failure',
    'maximum_retry_count goes only with the on-failure restart policy.',
  );
export type AppResourcesBody = z.infer<typeof AppResourcesBody>;

export const AppNetworkParams = z.object({ name: AppName, network: NetworkName });

export const NetworkConnectBody = z.strictObject({
  aliases: z.array(z.string().trim().min(1).max(255)).max(64).optional(),
  ipv4_address: z.ipv4('ipv4_address must be an IPv4 address.').optional(),
});
export const NetworkDisconnectBody = z.strictObject({ force: z.boolean().optional() }).optional();

const TAG = /^[\w][\w.-]{0,127}$/;
export const AppCommitBody = z.strictObject({
  /** A repository without a tag: `registry/name` or `name`. */
  repo: ImageReferenceString.refine(
    (v) => !v.includes('@') && !/:[\w][\w.-]*$/.test(v.split('/').pop() ?? ''),
    'repo is a repository without tag or digest (the tag goes in `tag`).',
  ),
  tag: z.string().trim().regex(TAG, 'tag is letters, digits, _ . - (at most 128).').default('latest'),
  comment: z.string().max(1000, 'comment is at most 1000 characters.').default(''),
});

export const AppCommitResult = z.object({ id: z.string(), image: z.string() });
export type AppCommitResult = z.infer<typeof AppCommitResult>;

export const appChangesApi = {
  rename: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/apps/{name}/rename',
    scope: 'environment',
    tag: 'apps',
    summary: 'Rename a container in place (a compose service is renamed in its project instead: 409)',
    params: AppNameParams,
    body: AppRenameBody,
    response: App,
  }),
  resources: defineRoute({
    method: 'PATCH',
    role: 'operator',
    path: '/api/apps/{name}/resources',
    scope: 'environment',
    tag: 'apps',
    summary:
      'Change limits and restart policy in place (same container); a value the engine refuses is a 409 with its reason, nothing changed',
    params: AppNameParams,
    body: AppResourcesBody,
    response: App,
  }),
  connect: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/apps/{name}/networks/{network}/connect',
    scope: 'environment',
    tag: 'apps',
    summary: 'Connect the container to a network, live',
    params: AppNetworkParams,
    body: NetworkConnectBody,
    response: App,
  }),
  disconnect: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/apps/{name}/networks/{network}/disconnect',
    scope: 'environment',
    tag: 'apps',
    summary: 'Disconnect the container from a network, live',
    params: AppNetworkParams,
    body: NetworkDisconnectBody,
    response: App,
  }),
  commit: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/apps/{name}/commit',
    scope: 'environment',
    tag: 'apps',
    summary: "An image of the container's current state (its writable layer included), tagged repo:tag",
    params: AppNameParams,
    body: AppCommitBody,
    response: AppCommitResult,
  }),
} as const;
