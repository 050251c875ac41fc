import { z } from 'zod';
import { defineRoute } from '../route';

export const Health = z.object({
  /** `checking` while Berth is still looking for the compose CLI right after start. */
  status: z.enum(['ok', 'degraded', 'checking']),
  version: z.string(),
  engine: z.object({ reachable: z.boolean(), version: z.string().nullable(), apiVersion: z.string().nullable(), error: z.string().nullable() }),
  compose: z.object({ found: z.boolean(), command: z.string().nullable(), version: z.string().nullable() }),
});
export type Health = z.infer<typeof Health>;

export const healthApi = {
  get: defineRoute({ method: 'GET', path: '/api/health', summary: 'Whether the engine is reachable and the compose CLI found', open: true, response: Health }),
};
