import type { Uses } from '../../context';
import { LogArchivesRepo } from '../../db/log-archives-repo';
import { LogArchiveStore, limitsOf } from './store';

export { LogArchiver } from './archiver';
export { HeldLogs } from './held-logs';
export type { LogArchiveStore } from './store';

/**
 * The kept logs of earlier containers (issue 36), shared by every environment: pruned at once
 * (by LOG_ARCHIVE_DAYS and LOG_ARCHIVE_MAX_MB) once Berth listens, then every hour. Each environment's LogArchiver
 * (buildScope) keeps lines into it and reads them back.
 */
export function createLogArchiveStore(ctx: Uses<'db' | 'log' | 'onClose' | 'afterStart', 'dataDir' | 'keptLogs'>) {
  const store = new LogArchiveStore(
    new LogArchivesRepo(ctx.db),
    ctx.config.dataDir,
    limitsOf(ctx.config.keptLogs),
    ctx.log,
  );
  ctx.afterStart(() =>
    store.start().catch((err: unknown) => ctx.log.warn({ err }, 'the kept container logs could not be pruned')),
  );
  ctx.onClose(() => store.close());
  return store;
}
