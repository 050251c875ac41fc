import { z } from 'zod';
import { defineRoute } from '../route';

/**
 * The Docker host at a glance (dashboard header). CPU and memory come from the host's /proc when
 * Berth can read it for this engine (`source: proc`), else from the engine's info (`engine`: no
 * CPU figure then). Disk is the engine's data root's file system, null where Berth cannot see it.
 */
export const HostOverview = z.object({
  time: z.string(),
  source: z.enum(['proc', 'engine']),
  /** Percent of all CPUs together (0–100); null when unknown (a remote engine). */
  cpu_percent: z.number().nullable(),
  cpus: z.number(),
  /** null when unknown (a remote engine tells only its total). */
  mem_used: z.number().nullable(),
  mem_total: z.number(),
  disk: z.object({ path: z.string(), used: z.number(), total: z.number() }).nullable(),
  containers: z.object({ running: z.number(), stopped: z.number() }),
  images: z.number(),
  volumes: z.number(),
  engine_version: z.string().nullable(),
});
export type HostOverview = z.infer<typeof HostOverview>;

const EventStream = z.string().describe('text/event-stream');

export const hostApi = {
  get: defineRoute({
    method: 'GET',
    path: '/api/host',
    scope: 'environment',
    tag: 'host',
    role: 'viewer',
    summary: 'Host CPU, memory, disk of the engine data root, container/image/volume counts, engine version',
    response: HostOverview,
  }),
  stream: defineRoute({
    method: 'GET',
    path: '/api/host/stream',
    scope: 'environment',
    tag: 'host',
    role: 'viewer',
    summary: "SSE: 'update' = a HostOverview every 2 seconds",
    response: EventStream,
  }),
};

/** Prometheus text exposition (text/plain; version=0.0.4). */
export const metricsApi = {
  get: defineRoute({
    method: 'GET',
    path: '/metrics',
    scope: 'global',
    tag: 'host',
    role: 'viewer',
    summary:
      "Prometheus metrics: per-app CPU, memory, restarts and running state, the host's figures, Berth's own process; send an API key as a Bearer token",
    response: z.string().describe('text/plain; version=0.0.4'),
  }),
};
