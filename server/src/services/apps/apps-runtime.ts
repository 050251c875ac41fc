import { LOCAL_ENVIRONMENT } from '@berth/contract';
import type { Uses } from '../../context';
import { EngineEvents } from '../../docker/events';
import { CgroupStatsSource } from '../../docker/cgroup-source';
import { AgentStatsSource } from '../../docker/agent-stats-source';
import { EngineStatsSource, StatsHub, type StatsSource } from '../../docker/stats-hub';
import { listRunning, probeContainer } from './containers';
import { ContainerListCache } from '../../docker/list-cache';
import type { StatsHistoryRepo } from '../../db/stats-history-repo';
import { EventsRepo } from '../../db/events-repo';
import { StatsHistory } from '../stats/stats-history';

/** Long-lived state behind the app routes: built once by buildServices, closed with the app. */
export interface AppsRuntime {
  /** The shared engine event subscription (other features may listen too). */
  events: EngineEvents;
  hub: StatsHub;
  /** Every running app's samples, kept (see StatsHistory). */
  history: StatsHistory;
  /** The last update check's answer per container ID. */
  updatable: Map<string, boolean>;
  /** Config.Image per container ID, for list rows where the engine shows an image ID instead. */
  imageRefs: Map<string, string>;
  /** The container list kept from the event stream; null where it is off (LIST_CACHE=false) or the engine's clock is not ours. */
  listCache: ContainerListCache | null;
  close(): void;
}

/** `env` is the environment's id (it keys the shared history file). */
export function createAppsRuntime(
  ctx: Uses<
    'db' | 'docker' | 'engine' | 'log' | 'agentStats' | 'afterStart',
    'cgroupRoot' | 'dockerHost' | 'listCache' | 'statsHistory'
  >,
  historyRepo: StatsHistoryRepo,
  env: string,
): AppsRuntime {
  const events = new EngineEvents(ctx.docker, ctx.engine, ctx.log);
  // An agent's engine ran on while Berth was away: its events resume from the last one kept (the
  // whole millisecond: stored times hold no more).
  if (ctx.agentStats) {
    const last = new EventsRepo(ctx.db).find({ environment: env, limit: 1 })[0];
    if (last) events.resumeAfter((Date.parse(last.time) + 1) * 1e6 - 1);
  }
  const source = statsSource(ctx, onThisHost(env, ctx));
  const offAgent = source instanceof AgentStatsSource ? ctx.agentStats!((m) => source.push(m)) : null;
  const hub = new StatsHub({
    source,
    events,
    listRunning: () => listRunning(ctx.docker),
    probe: (id) => probeContainer(ctx.docker, id),
    log: ctx.log,
  });
  const history = new StatsHistory(historyRepo, env, ctx.log);
  // Once Berth listens: at start it lists the running containers and opens a reading of each.
  if (ctx.config.statsHistory) ctx.afterStart(() => history.start(hub));
  // The cache's proof compares the engine's event times with Berth's clock: an engine on this host only.
  const listCache =
    ctx.config.listCache && onThisHost(env, ctx) ? new ContainerListCache(ctx.docker, events, ctx.log) : null;
  return {
    events,
    hub,
    history,
    updatable: new Map(),
    imageRefs: new Map(),
    listCache,
    close: () => {
      offAgent?.();
      listCache?.close();
      history.close();
      hub.close();
      events.close();
    },
  };
}

/**
 * The cgroup files hold only the containers of the engine on this host: they are read for the
 * local environment's engine reached through a local socket, when the tree is readable; each
 * container whose cgroup is not found there is still sampled by the engine. An agent environment
 * uses what its agent reads from its own host's cgroups; other remote environments use the engine.
 */
function statsSource(ctx: Uses<'docker' | 'log' | 'agentStats', 'cgroupRoot'>, local: boolean): StatsSource {
  const engine = new EngineStatsSource(ctx.docker);
  if (ctx.agentStats) return new AgentStatsSource(engine);
  return (local && CgroupStatsSource.detect(ctx.config.cgroupRoot, engine, ctx.log)) || engine;
}

/** Whether the environment's engine runs on Berth's host: the local environment over a unix socket. */
export const onThisHost = (env: string, ctx: Uses<never, 'dockerHost'>): boolean =>
  env === LOCAL_ENVIRONMENT && (!ctx.config.dockerHost || ctx.config.dockerHost.startsWith('unix://'));
