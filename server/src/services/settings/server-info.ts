import type { Health, ServerInfo, StatsSourceKind } from '@berth/contract';
import type { Uses } from '../../context';

/** Health and Settings > Info: Berth's real version, the engine, the compose CLI and Berth's folders. */
export class ServerInfoService {
  constructor(
    private readonly ctx: Uses<
      'compose' | 'composeReady' | 'engine' | 'version',
      'composeDir' | 'dataDir' | 'disableAuth'
    >,
    /** Which source the local stats hub runs. */
    private readonly statsSource: () => StatsSourceKind,
    /** Whether DATA_DIR has room to write. */
    private readonly storage: { readonly full: boolean; readonly detail: string },
  ) {}

  private compose() {
    const { compose } = this.ctx;
    return { found: compose !== null, command: compose?.argv.join(' ') ?? null, version: compose?.version ?? null };
  }

  async health(): Promise<Health> {
    const engine = await this.ctx.engine.check();
    const full = this.storage.full;
    return {
      // `checking` while the compose CLI is still being looked for in the background.
      status: this.ctx.composeReady ? 'checking' : engine.reachable && this.ctx.compose && !full ? 'ok' : 'degraded',
      version: this.ctx.version,
      engine,
      compose: this.compose(),
      stats: { source: this.statsSource() },
      storage: { full, error: full ? this.storage.detail : null },
    };
  }

  async info(): Promise<ServerInfo> {
    // A fresh check, so the page never shows an engine that went away since the last poll.
    const engine = await this.ctx.engine.check();
    return {
      version: this.ctx.version,
      engine: { reachable: engine.reachable, version: engine.version, apiVersion: engine.apiVersion },
      compose: this.compose(),
      dataDir: this.ctx.config.dataDir,
      composeDir: this.ctx.config.composeDir,
      authDisabled: this.ctx.config.disableAuth,
    };
  }
}
