import type { FastifyInstance } from 'fastify';
import { healthApi } from '@berth/contract';
import { route } from '../lib/route';
import type { AppContext } from '../context';

export function healthRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, healthApi.get, async () => {
    const engine = await ctx.engine.check();
    return {
      status: ctx.composeReady ? ('checking' as const) : engine.reachable && ctx.compose ? ('ok' as const) : ('degraded' as const),
      version: ctx.version,
      engine,
      compose: { found: ctx.compose !== null, command: ctx.compose?.argv.join(' ') ?? null, version: ctx.compose?.version ?? null },
    };
  });
}
