import { z } from 'zod';
import { defineRoute } from '../route';

/** Spec rule for catalogue URLs: http(s), a host, a path after the host, no user:password part. */
export function isCatalogueUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (!url.hostname || url.username || url.password) return false;
  return url.pathname.length > 1;
}

/** The spec's shared url rule: the catalogue URL's requirement with its own message. */
export const UrlRule = z
  .string({ error: 'This is not a valid URL' })
  .trim()
  .refine(isCatalogueUrl, 'This is not a valid URL');

const titleRule = 'Length between 2 and 255 Characters.';

export const NewTemplateBody = z.strictObject({
  title: z
    .string({ error: (iss) => (iss.input === undefined ? 'Required.' : titleRule) })
    .trim()
    .min(2, titleRule)
    .max(255, titleRule),
  url: z
    .string({ error: (iss) => (iss.input === undefined ? 'Required.' : 'Invalid URL') })
    .trim()
    .min(1, 'Required.')
    .max(2048, 'Invalid URL')
    .refine(isCatalogueUrl, 'Invalid URL'),
});
export type NewTemplateBody = z.infer<typeof NewTemplateBody>;

/* Template item fields keep the original product's shapes: port numbers as strings, so a form can be filled as is. */
export const TemplatePort = z.object({
  label: z.string().nullable(),
  /** The host address to publish on ('127.0.0.1:8080:80'); null = every interface. */
  host_ip: z.string().nullable().default(null),
  hport: z.string().nullable(),
  cport: z.string(),
  proto: z.enum(['tcp', 'udp']),
});
export type TemplatePort = z.infer<typeof TemplatePort>;
export const TemplateVolume = z.object({ bind: z.string(), container: z.string(), readonly: z.boolean().optional() });
export type TemplateVolume = z.infer<typeof TemplateVolume>;
export const TemplateEnvOption = z.object({ label: z.string(), value: z.string() });
export const TemplateEnv = z.object({
  name: z.string(),
  label: z.string().nullable(),
  default: z.string(),
  description: z.string().nullable(),
  /** Portainer's `select`: the choices offered for the value (empty = free text). */
  options: z.array(TemplateEnvOption).default([]),
});
export type TemplateEnv = z.infer<typeof TemplateEnv>;
export const TemplateDevice = z.object({ container: z.string(), host: z.string() });
export const TemplateLabel = z.object({ label: z.string(), value: z.string() });
export const TemplateSysctl = z.object({ name: z.string(), value: z.string() });

/**
 * A stack template (Portainer types 2 and 3, or a `stackfile` entry): its compose file is fetched
 * from `url` when it is deployed, as a compose project (or a swarm stack on a swarm).
 */
export const TemplateStack = z.object({ kind: z.enum(['swarm', 'compose']), url: z.string() });
export type TemplateStack = z.infer<typeof TemplateStack>;

/** One deployable app of a catalogue, normalised from whichever format it came in. */
export const TemplateItemData = z.object({
  type: z.number().int(),
  title: z.string(),
  name: z.string(),
  description: z.string(),
  logo: z.string(),
  notes: z.string(),
  image: z.string(),
  platform: z.string(),
  categories: z.array(z.string()),
  /** A catalogue's command string is split like a shell would (quotes kept together). */
  command: z.array(z.string()).nullable(),
  restart_policy: z.enum(['always', 'on-failure', 'unless-stopped', 'none']).nullable(),
  network: z.string(),
  network_mode: z.string(),
  ports: z.array(TemplatePort),
  volumes: z.array(TemplateVolume),
  env: z.array(TemplateEnv),
  devices: z.array(TemplateDevice),
  labels: z.array(TemplateLabel),
  sysctls: z.array(TemplateSysctl),
  cap_add: z.array(z.string()),
  cpus: z.number().nullable(),
  mem_limit: z.string().nullable(),
  privileged: z.boolean().default(false),
  /** Portainer's `interactive`: stdin kept open and a terminal (docker run -it). */
  interactive: z.boolean().default(false),
  hostname: z.string().default(''),
  /** Set for a stack template (then `image` is empty); null for a container template. */
  stack: TemplateStack.nullable().default(null),
});
export type TemplateItemData = z.infer<typeof TemplateItemData>;
export const TemplateItem = TemplateItemData.extend({ id: z.number().int(), template_id: z.number().int() });
export type TemplateItem = z.infer<typeof TemplateItem>;

export const Template = z.object({
  id: z.number().int(),
  title: z.string(),
  url: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  item_count: z.number().int(),
});
export type Template = z.infer<typeof Template>;
export const TemplateDetail = Template.extend({ items: z.array(TemplateItem) });
export type TemplateDetail = z.infer<typeof TemplateDetail>;

/** A catalogue entry that could not be read; the rest of the catalogue is kept. */
export const SkippedItem = z.object({ index: z.number().int(), title: z.string().nullable(), reason: z.string() });
export type SkippedItem = z.infer<typeof SkippedItem>;
/** Answer of create and refresh: the template plus what was skipped. */
export const TemplateWriteResult = Template.extend({ skipped: z.array(SkippedItem) });
export type TemplateWriteResult = z.infer<typeof TemplateWriteResult>;

export const TemplateIdParams = z.object({
  id: z.coerce.number({ error: 'Must be a template id.' }).int().positive('Must be a template id.'),
});

export const templateApi = {
  list: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/templates/',
    scope: 'global',
    tag: 'templates',
    summary: 'Template sources (without items)',
    response: z.array(Template),
  }),
  create: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/templates/',
    scope: 'global',
    tag: 'templates',
    summary: 'Add a template source: fetch the catalogue at url and store its items',
    body: NewTemplateBody,
    response: TemplateWriteResult,
  }),
  get: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/templates/{id}',
    scope: 'global',
    tag: 'templates',
    summary: 'A template source with its items',
    params: TemplateIdParams,
    response: TemplateDetail,
  }),
  remove: defineRoute({
    method: 'DELETE',
    role: 'operator',
    path: '/api/templates/{id}',
    scope: 'global',
    tag: 'templates',
    summary: 'Delete a template source and its items',
    params: TemplateIdParams,
    response: Template,
  }),
  refresh: defineRoute({
    method: 'GET',
    role: 'operator',
    path: '/api/templates/{id}/refresh',
    scope: 'global',
    tag: 'templates',
    summary: 'Re-fetch the catalogue; unchanged items keep their ids',
    alsoMethods: ['POST'],
    params: TemplateIdParams,
    response: TemplateWriteResult,
  }),
  item: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/templates/app/{id}',
    scope: 'global',
    tag: 'templates',
    summary: 'One template item (variables not substituted)',
    params: TemplateIdParams,
    response: TemplateItem,
  }),
};
