import { z } from 'zod';
import { defineRoute } from '../route';
import { QueryInstant as Instant } from './time';

/** The engine object kinds whose events Berth keeps (service and node on swarm managers only). */
export const ENGINE_EVENT_TYPES = ['container', 'image', 'volume', 'network', 'service', 'node'] as const;
export type EngineEventType = (typeof ENGINE_EVENT_TYPES)[number];

/** One engine event as kept in the history. */
export const EngineEventRecord = z.object({
  id: z.number().int(),
  /** ISO time the engine gave the event. */
  time: z.string(),
  /** The environment (engine) it happened on; `local` for DOCKER_HOST. */
  environment: z.string(),
  type: z.enum(ENGINE_EVENT_TYPES),
  /** The engine's action: create, start, die, oom, health_status: unhealthy, pull, connect... */
  action: z.string(),
  /** The object's ID (for images and volumes, their reference or name). */
  actor_id: z.string(),
  /** A readable name: container, volume, network, service or node name, or the image reference. */
  name: z.string(),
  /** The few attributes kept: image, exitCode, signal, the compose project and service, network driver... */
  attributes: z.record(z.string(), z.string()),
});
export type EngineEventRecord = z.infer<typeof EngineEventRecord>;

export const EventsFilter = z.object({
  type: z
    .enum(ENGINE_EVENT_TYPES, { message: `Unknown type; use one of ${ENGINE_EVENT_TYPES.join(', ')}.` })
    .optional(),
  action: z.string().trim().min(1).max(100).optional(),
  /** Exact name (container, volume, network, service or node name, or image reference). */
  name: z.string().trim().min(1).max(255).optional(),
  since: Instant.optional(),
});

export const EventsQuery = EventsFilter.extend({
  until: Instant.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});
export type EventsQuery = z.output<typeof EventsQuery>;

/** Server-sent events: 'update' = one EngineEventRecord. */
const EventStream = z.string().describe('text/event-stream');

export const eventsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/events',
    scope: 'environment',
    tag: 'events',
    role: 'viewer',
    summary: 'Engine event history, newest first (kept for EVENTS_RETENTION_DAYS)',
    querystring: EventsQuery,
    response: z.array(EngineEventRecord),
  }),
  stream: defineRoute({
    method: 'GET',
    path: '/api/events/stream',
    scope: 'environment',
    tag: 'events',
    role: 'viewer',
    summary:
      "SSE: 'update' = one EngineEventRecord as it happens; with `since`, the kept ones from then first (oldest first)",
    querystring: EventsFilter,
    response: EventStream,
  }),
};
