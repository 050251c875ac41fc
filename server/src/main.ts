import { ConfigError, loadConfig } from './config';
import { buildApp } from './app';
import { endAllStreams } from './lib/sse';
import { DataDirLockedError, lockDataDir } from './db/data-dir-lock';

/**
 * Last resort if closing hangs: longer than compose's shutdown grace (SIGTERM, then SIGKILL
 * after 10 s), so a normal shutdown during a compose action still ends with exit 0.
 */
const FORCED_EXIT_MS = 30_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  let unlock: () => void;
  try {
    // Held until the process ends: a second Berth on the same folder would fight over berth.db.
    unlock = lockDataDir(config.dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      process.exit(3);
    }
    throw err;
  }
  const { app } = await buildApp(config);
  // Also keeps the lock's connection referenced: collected, it would close and free the lock.
  app.addHook('onClose', async () => unlock());
  // After the compose routes' own preClose (running actions stopped and answered), so viewers
  // see each action's end before the stream's last `end`.
  app.addHook('preClose', async () => endAllStreams(app, 'Berth is shutting down.'));
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), FORCED_EXIT_MS);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  console.error('Berth failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
