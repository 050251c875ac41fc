import { z } from 'zod';
import { defineRoute } from '../route';

export const StatsSourceKind = z.enum(['cgroup', 'engine']);
export type StatsSourceKind = z.infer<typeof StatsSourceKind>;

export const Health = z.object({
  /** `checking` while Berth is still looking for the compose CLI right after start. */
  status: z.enum(['ok', 'degraded', 'checking']),
  version: z.string(),
  engine: z.object({
    reachable: z.boolean(),
    version: z.string().nullable(),
    apiVersion: z.string().nullable(),
    error: z.string().nullable(),
  }),
  compose: z.object({ found: z.boolean(), command: z.string().nullable(), version: z.string().nullable() }),
  /**
   * Where the local engine's live stats come from: `cgroup` = the host's cgroup files (cheap),
   * `engine` = the engine's stats API (no readable cgroup tree, or a remote engine).
   */
  stats: z.object({ source: StatsSourceKind }),
  /** Whether the disk holding DATA_DIR is full (changes are then refused with 507 insufficient_storage). */
  storage: z.object({ full: z.boolean(), error: z.string().nullable() }),
});
export type Health = z.infer<typeof Health>;

export const healthApi = {
  get: defineRoute({
    method: 'GET',
    path: '/api/health',
    scope: 'global',
    tag: 'health',
    summary: 'Whether the engine is reachable and the compose CLI found',
    open: true,
    response: Health,
  }),
};
