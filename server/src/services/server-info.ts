import type { ServerInfo } from '@berth/contract';
import type { AppContext } from '../context';

/** What Settings > Info shows: Berth's real version, the engine, the compose CLI and Berth's folders. */
export async function serverInfo(ctx: AppContext): Promise<ServerInfo> {
  // A fresh check, so the page never shows an engine that went away since the last poll.
  const engine = await ctx.engine.check();
  return {
    version: ctx.version,
    engine: { reachable: engine.reachable, version: engine.version, apiVersion: engine.apiVersion },
    compose: { found: ctx.compose !== null, command: ctx.compose?.argv.join(' ') ?? null, version: ctx.compose?.version ?? null },
    dataDir: ctx.config.dataDir,
    composeDir: ctx.config.composeDir,
    authDisabled: ctx.config.disableAuth,
  };
}
