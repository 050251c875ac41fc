import { z } from 'zod';
import { defineRoute, EnvironmentId } from '../route';

/** A stored registry credential as every read shows it: the password or token is never part of it. */
export const Registry = z.object({
  id: z.number().int(),
  name: z.string(),
  /** host[:port] as image references name it: `ghcr.io`, `docker.io`, `registry.example.com:5000`. */
  server_address: z.string(),
  username: z.string().nullable(),
  /** A password or token is stored (write-only). */
  has_password: z.boolean(),
  /** PEM CA certificate Berth trusts for this registry's TLS (its own calls: test, browse, update checks). */
  ca_cert: z.string().nullable(),
  /** The environments that may use it; null: every environment. */
  environments: z.array(EnvironmentId).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Registry = z.infer<typeof Registry>;

const registryFields = {
  name: z
    .string({ error: 'Name is required.' })
    .trim()
    .min(1, 'Name is required.')
    .max(100, 'Name is at most 100 characters.'),
  server_address: z
    .string({ error: 'Server address is required.' })
    .trim()
    .min(1, 'Server address is required.')
    .max(255, 'Server address is at most 255 characters.'),
  username: z.string().trim().max(255, 'Username is at most 255 characters.').nullable(),
  password: z.string().max(8192, 'Password or token is at most 8 KiB.'),
  ca_cert: z
    .string()
    .trim()
    .max(64 * 1024, 'The CA certificate is at most 64 KiB.')
    .regex(
      /^$|-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/,
      'The CA certificate must be PEM text (-----BEGIN CERTIFICATE-----).',
    )
    .nullable(),
  environments: z.array(EnvironmentId).max(200).nullable(),
};

export const NewRegistryBody = z.strictObject({
  name: registryFields.name,
  server_address: registryFields.server_address,
  username: registryFields.username.optional(),
  password: registryFields.password.optional(),
  ca_cert: registryFields.ca_cert.optional(),
  environments: registryFields.environments.optional(),
});
export type NewRegistryBody = z.infer<typeof NewRegistryBody>;

/** Only the fields given change; an empty password or token removes the stored one, an absent one keeps it. */
export const RegistryPatchBody = NewRegistryBody.partial();
export type RegistryPatchBody = z.infer<typeof RegistryPatchBody>;

/** Test without saving: the same fields as a new registry (the stored password is used when `id` is given and none is typed). */
export const RegistryTestBody = NewRegistryBody.partial().extend({ id: z.number().int().positive().optional() });
export type RegistryTestBody = z.infer<typeof RegistryTestBody>;

export const RegistryTestFailure = z.enum(['unauthorized', 'tls', 'unreachable', 'not_registry']);
export type RegistryTestFailure = z.infer<typeof RegistryTestFailure>;

export const RegistryTestResult = z.object({
  ok: z.boolean(),
  /** What failed; null when the registry answered /v2/ with these credentials. */
  failure: RegistryTestFailure.nullable(),
  detail: z.string(),
  /** The URL of /v2/ that was reached (https, or http when the registry speaks no TLS). */
  url: z.string().nullable(),
});
export type RegistryTestResult = z.infer<typeof RegistryTestResult>;

export const RegistryParams = z.object({ id: z.coerce.number().int().positive() });
export const RegistryRepoParams = RegistryParams.extend({
  repo: z
    .string()
    .regex(
      /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/,
      'Not a repository name.',
    ),
});

export const RegistryPageQuery = z.object({
  /** Page size (the registry may answer fewer). */
  n: z.coerce.number().int().min(1).max(1000).default(100),
  /** The last name of the previous page (its `next`). */
  last: z.string().max(512).optional(),
});

export const RegistryRepositories = z.object({
  repositories: z.array(z.string()),
  /** Pass as `last` for the next page; null on the last page. */
  next: z.string().nullable(),
  /** False when the registry does not allow listing its repositories (Docker Hub, most hosted ones); `detail` says so. */
  catalog_allowed: z.boolean(),
  detail: z.string().nullable(),
});
export type RegistryRepositories = z.infer<typeof RegistryRepositories>;

export const RegistryTags = z.object({
  repository: z.string(),
  /** `server_address/repository` (what to pull, without the tag). */
  image: z.string(),
  tags: z.array(z.string()),
  next: z.string().nullable(),
});
export type RegistryTags = z.infer<typeof RegistryTags>;

const base = { scope: 'global', tag: 'registries' } as const;

export const registryApi = {
  list: defineRoute({
    ...base,
    method: 'GET',
    path: '/api/registries',
    summary: 'Every stored registry credential (never its password)',
    role: 'operator',
    response: z.array(Registry),
  }),
  create: defineRoute({
    ...base,
    method: 'POST',
    path: '/api/registries',
    summary: 'Store a registry credential',
    role: 'admin',
    body: NewRegistryBody,
    response: Registry,
  }),
  get: defineRoute({
    ...base,
    method: 'GET',
    path: '/api/registries/{id}',
    summary: 'One registry credential (never its password)',
    role: 'operator',
    params: RegistryParams,
    response: Registry,
  }),
  update: defineRoute({
    ...base,
    method: 'PATCH',
    path: '/api/registries/{id}',
    summary: 'Change a registry credential',
    role: 'admin',
    params: RegistryParams,
    body: RegistryPatchBody,
    response: Registry,
  }),
  remove: defineRoute({
    ...base,
    method: 'DELETE',
    path: '/api/registries/{id}',
    summary: 'Remove a registry credential',
    role: 'admin',
    params: RegistryParams,
    response: Registry,
  }),
  test: defineRoute({
    ...base,
    method: 'POST',
    path: '/api/registries/{id}/test',
    summary: "Reach the registry's /v2/ with the stored credential and say what failed",
    role: 'operator',
    params: RegistryParams,
    response: RegistryTestResult,
  }),
  testNew: defineRoute({
    ...base,
    method: 'POST',
    path: '/api/registries/test',
    summary: 'Reach a registry with credentials before saving them (fields not given come from `id` when given)',
    role: 'admin',
    body: RegistryTestBody,
    response: RegistryTestResult,
  }),
  repositories: defineRoute({
    ...base,
    method: 'GET',
    path: '/api/registries/{id}/repositories',
    summary: "The registry's repositories (v2 catalog), a page at a time",
    role: 'operator',
    params: RegistryParams,
    querystring: RegistryPageQuery,
    response: RegistryRepositories,
  }),
  tags: defineRoute({
    ...base,
    method: 'GET',
    path: '/api/registries/{id}/repositories/{repo}/tags',
    summary: "A repository's tags, a page at a time",
    role: 'operator',
    params: RegistryRepoParams,
    querystring: RegistryPageQuery,
    response: RegistryTags,
  }),
};
