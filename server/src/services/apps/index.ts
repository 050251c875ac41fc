import type { Uses } from '../../context';
import type { StatsHistoryRepo } from '../../db/stats-history-repo';
import { AppsService } from './apps';
import { AppChangesService } from './app-changes';
import { AppFilesService } from '../files/app-files';
import { AppStreams } from './apps-live';
import { createAppsRuntime } from './apps-runtime';
import { AppUpdateService, type AppRevisionRecorder } from './apps-update';
import type { PolicyGate } from '../policy/policy';

export { onThisHost, type AppsRuntime } from './apps-runtime';

/**
 * One environment's apps: the runtime behind them (its engine event subscription, stats hub,
 * kept samples and container list cache, started here) and the services over it.
 */
export function createApps(
  ctx: Uses<
    'afterStart' | 'agentStats' | 'db' | 'docker' | 'engine' | 'log' | 'registryAuth' | 'registryTags',
    'cgroupRoot' | 'containerName' | 'dockerHost' | 'hostname' | 'listCache' | 'statsHistory'
  >,
  historyRepo: StatsHistoryRepo,
  environment: string,
  policy: PolicyGate,
  /** Where rename, resources and updates are kept as revisions. */
  revisions: AppRevisionRecorder,
) {
  const runtime = createAppsRuntime(ctx, historyRepo, environment);
  const apps = new AppsService(ctx, runtime);
  return {
    runtime,
    apps,
    appUpdates: new AppUpdateService(ctx, apps, runtime, revisions),
    appChanges: new AppChangesService(ctx, apps, revisions),
    appFiles: new AppFilesService(ctx, apps, policy),
    appStreams: new AppStreams(ctx, runtime),
  };
}
