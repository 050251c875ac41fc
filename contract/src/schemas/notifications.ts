import { z } from 'zod';
import { defineRoute } from '../route';

export const CHANNEL_TYPES = ['webhook', 'ntfy', 'email', 'discord', 'slack'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/**
 * Threshold rules: each fires once when its reading stays above `threshold` for `for_minutes`,
 * and again only after the reading was below it for as long (with the rule's quiet period).
 * Percent for all but volume_size (GB, measured at most every 10 minutes).
 */
export const THRESHOLD_EVENTS = [
  'app_cpu',
  'app_memory',
  'host_cpu',
  'host_memory',
  'data_disk',
  'engine_disk',
  'volume_size',
] as const;
export const NOTIFY_EVENTS = [
  'container_died',
  'container_stopped',
  'container_started',
  'health_changed',
  'oom',
  'unhealthy',
  'restart_loop',
  'update_available',
  'auto_update',
  'compose_failed',
  'environment_down',
  'backup_failed',
  'restore_drill_failed',
  'auto_healed',
  'auto_heal_gave_up',
  ...THRESHOLD_EVENTS,
] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

export type ThresholdEvent = (typeof THRESHOLD_EVENTS)[number];
export const isThresholdEvent = (e: string): e is ThresholdEvent => (THRESHOLD_EVENTS as readonly string[]).includes(e);
/** What an app's percentage is of: its own limit (the host's when it has none), or the whole host. */
export const THRESHOLD_BASES = ['limit', 'host'] as const;

/** Fields of each channel type that are secrets: stored sealed, never returned (see `secrets_set`). */
export const CHANNEL_SECRETS = {
  webhook: ['header_value', 'signing_secret'],
  ntfy: ['token'],
  email: ['password'],
  // A Discord or Slack incoming-webhook URL is itself the credential.
  discord: ['url'],
  slack: ['url'],
} as const satisfies Record<ChannelType, readonly string[]>;

/**
 * The fields that say where a channel's messages go. Changing one drops the channel's stored
 * secrets unless they are sent again in the same change (a new receiver must not get them).
 */
export const CHANNEL_DESTINATION_FIELDS: Partial<Record<ChannelType, readonly string[]>> = {
  webhook: ['url'],
  ntfy: ['url'],
  email: ['host', 'port'],
};

const HttpUrl = z
  .string()
  .trim()
  .max(2048)
  .url('Use an http(s) URL.')
  .refine((u) => /^https?:\/\//i.test(u), 'Use an http(s) URL.');
const Name = z.string().trim().min(1, 'Name is required.').max(100, 'Name is at most 100 characters.');
const Secret = z.string().max(4096);
const Emails = z
  .string()
  .trim()
  .min(3)
  .max(2048)
  .regex(/^[^\s,@]+@[^\s,@]+(\s*,\s*[^\s,@]+@[^\s,@]+)*$/, 'Use an email address or a comma list of them.');

const WebhookFields = z.strictObject({
  name: Name,
  type: z.literal('webhook'),
  url: HttpUrl,
  /** A header sent with every POST, e.g. `X-Token`; its value is a secret. */
  header_name: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,100}$/, 'Use a header name (letters, digits, -).')
    .optional(),
  header_value: Secret.optional(),
  /** When set, `X-Berth-Signature: sha256=<hex HMAC-SHA256 of the body>` is sent. */
  signing_secret: Secret.optional(),
});
const NtfyFields = z.strictObject({
  name: Name,
  type: z.literal('ntfy'),
  /** The ntfy server, e.g. https://ntfy.sh */
  url: HttpUrl,
  topic: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Use letters, digits, _ or - (at most 64).'),
  token: Secret.optional(),
});
const EmailFields = z.strictObject({
  name: Name,
  type: z.literal('email'),
  host: z.string().trim().min(1, 'Host is required.').max(255),
  port: z.number().int().min(1).max(65535).default(587),
  /** none = plain, starttls = upgrade (required), tls = TLS from the start (port 465). */
  tls: z.enum(['none', 'starttls', 'tls']).default('starttls'),
  user: z.string().trim().max(255).optional(),
  password: Secret.optional(),
  from: Emails,
  to: Emails,
});
const ChatFields = (type: 'discord' | 'slack') => z.strictObject({ name: Name, type: z.literal(type), url: HttpUrl });

/** POST body of a channel (and, merged with the stored one, the result of a PATCH). */
export const ChannelBody = z.discriminatedUnion('type', [
  WebhookFields,
  NtfyFields,
  EmailFields,
  ChatFields('discord'),
  ChatFields('slack'),
]);
export type ChannelBody = z.output<typeof ChannelBody>;

/** PATCH body: any fields but the type; a secret field set to null is cleared, left out is kept. */
export const ChannelPatch = z
  .record(z.string(), z.unknown())
  .refine((o) => !('type' in o), 'The type of a channel cannot change; add a new channel instead.');

/** A channel as read: every field but the secrets, and which secrets are set. */
export const Channel = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(CHANNEL_TYPES),
  url: z.string().optional(),
  header_name: z.string().optional(),
  topic: z.string().optional(),
  host: z.string().optional(),
  port: z.number().optional(),
  tls: z.string().optional(),
  user: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  secrets_set: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Channel = z.infer<typeof Channel>;

export const RuleScope = z.strictObject({
  environment: z.string().trim().min(1).max(100).optional(),
  app: z.string().trim().min(1).max(255).optional(),
  project: z.string().trim().min(1).max(255).optional(),
  /** volume_size: one volume (else every volume). */
  volume: z.string().trim().min(1).max(255).optional(),
});

const RuleFields = {
  event: z.enum(NOTIFY_EVENTS, { message: `Unknown event; use one of ${NOTIFY_EVENTS.join(', ')}.` }),
  channels: z.array(z.number().int().positive()).min(1, 'Pick at least one channel.').max(50),
  scope: RuleScope,
  /** After a message for one app (project, environment), the same rule stays quiet this long. */
  quiet_minutes: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60),
  /** restart_loop: this many starts within `within_minutes`. */
  restarts: z.number().int().min(2).max(1000),
  within_minutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60),
  /** Threshold rules: percent (volume_size: GB); required for them, null for the others. */
  threshold: z.number().min(0).max(1_000_000).nullable(),
  /** Threshold rules: how long the reading stays above (and, to recover, below) the threshold; fractions allowed. */
  for_minutes: z
    .number()
    .min(0)
    .max(24 * 60),
  /** app_cpu, app_memory: percent of the app's limit or of the host. */
  of: z.enum(THRESHOLD_BASES),
};
export const RuleBody = z.strictObject({
  ...RuleFields,
  scope: RuleFields.scope.default({}),
  quiet_minutes: RuleFields.quiet_minutes.default(10),
  restarts: RuleFields.restarts.default(3),
  within_minutes: RuleFields.within_minutes.default(10),
  threshold: RuleFields.threshold.default(null),
  for_minutes: RuleFields.for_minutes.default(5),
  of: RuleFields.of.default('limit'),
});
export type RuleBody = z.output<typeof RuleBody>;
/** PATCH body: only the fields sent change. */
export const RulePatch = z.strictObject(RuleFields).partial();
export type RulePatch = z.output<typeof RulePatch>;

export const Rule = z.object({
  id: z.number().int(),
  event: z.enum(NOTIFY_EVENTS),
  channels: z.array(z.number().int()),
  scope: z.object({
    environment: z.string().optional(),
    app: z.string().optional(),
    project: z.string().optional(),
    volume: z.string().optional(),
  }),
  quiet_minutes: z.number().int(),
  restarts: z.number().int(),
  within_minutes: z.number().int(),
  threshold: z.number().nullable(),
  for_minutes: z.number(),
  of: z.enum(THRESHOLD_BASES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Rule = z.infer<typeof Rule>;

export const Delivery = z.object({
  id: z.number().int(),
  time: z.string(),
  channel_id: z.number().int().nullable(),
  channel_name: z.string(),
  event: z.string(),
  title: z.string(),
  /** pending (being sent or waiting for a retry), sent, failed (gave up after the retries). */
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number().int(),
  error: z.string().nullable(),
});
export type Delivery = z.infer<typeof Delivery>;

export const IdParams = z.object({ id: z.coerce.number().int().positive('Use a numeric id.') });
export const HistoryQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) });
const Ok = z.object({ msg: z.string() });

export const notificationsApi = {
  channels: defineRoute({
    method: 'GET',
    path: '/api/notifications/channels',
    scope: 'global',
    tag: 'notifications',
    summary: 'Notification channels (secrets never shown)',
    role: 'viewer',
    response: z.array(Channel),
  }),
  addChannel: defineRoute({
    method: 'POST',
    path: '/api/notifications/channels',
    scope: 'global',
    tag: 'notifications',
    summary: 'Add a notification channel',
    role: 'admin',
    body: ChannelBody,
    response: Channel,
  }),
  editChannel: defineRoute({
    method: 'PATCH',
    path: '/api/notifications/channels/{id}',
    scope: 'global',
    tag: 'notifications',
    summary: 'Change a notification channel (secrets: left out = kept, null = cleared)',
    role: 'admin',
    params: IdParams,
    body: ChannelPatch,
    response: Channel,
  }),
  removeChannel: defineRoute({
    method: 'DELETE',
    path: '/api/notifications/channels/{id}',
    scope: 'global',
    tag: 'notifications',
    summary: 'Remove a notification channel',
    role: 'admin',
    params: IdParams,
    response: Ok,
  }),
  testChannel: defineRoute({
    method: 'POST',
    path: '/api/notifications/channels/{id}/test',
    scope: 'global',
    tag: 'notifications',
    summary: 'Send a test message through a channel (once, now; the answer says whether it arrived)',
    role: 'admin',
    params: IdParams,
    response: Delivery,
  }),
  rules: defineRoute({
    method: 'GET',
    path: '/api/notifications/rules',
    scope: 'global',
    tag: 'notifications',
    summary: 'Notification rules',
    role: 'viewer',
    response: z.array(Rule),
  }),
  addRule: defineRoute({
    method: 'POST',
    path: '/api/notifications/rules',
    scope: 'global',
    tag: 'notifications',
    summary: 'Add a notification rule',
    role: 'admin',
    body: RuleBody,
    response: Rule,
  }),
  editRule: defineRoute({
    method: 'PATCH',
    path: '/api/notifications/rules/{id}',
    scope: 'global',
    tag: 'notifications',
    summary: 'Change a notification rule',
    role: 'admin',
    params: IdParams,
    body: RulePatch,
    response: Rule,
  }),
  removeRule: defineRoute({
    method: 'DELETE',
    path: '/api/notifications/rules/{id}',
    scope: 'global',
    tag: 'notifications',
    summary: 'Remove a notification rule',
    role: 'admin',
    params: IdParams,
    response: Ok,
  }),
  history: defineRoute({
    method: 'GET',
    path: '/api/notifications/history',
    scope: 'global',
    tag: 'notifications',
    summary: 'Recent notification deliveries, newest first, with their errors',
    role: 'viewer',
    querystring: HistoryQuery,
    response: z.array(Delivery),
  }),
};
