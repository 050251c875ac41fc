import type { AppContext } from '../context';
import { EngineEvents } from '../docker/events';
import { CgroupStatsSource } from '../docker/cgroup-source';
import { EngineStatsSource, StatsHub, type StatsSource } from '../docker/stats-hub';
import { listRunning, probeContainer } from '../docker/containers';

/** Long-lived state behind the app routes: built once by buildServices, closed with the app. */
export interface AppsRuntime {
  /** The shared engine event subscription (other features may listen too). */
  events: EngineEvents;
  hub: StatsHub;
  /** The last update check's answer per container ID. */
  updatable: Map<string, boolean>;
  /** Config.Image per container ID, for list rows where the engine shows an image ID instead. */
  imageRefs: Map<string, string>;
  close(): void;
}

export function createAppsRuntime(ctx: AppContext): AppsRuntime {
  const events = new EngineEvents(ctx.docker, ctx.engine, ctx.log);
  const hub = new StatsHub({
    source: statsSource(ctx),
    events,
    listRunning: () => listRunning(ctx.docker),
    probe: (id) => probeContainer(ctx.docker, id),
    log: ctx.log,
  });
  return {
    events,
    hub,
    updatable: new Map(),
    imageRefs: new Map(),
    close: () => {
      hub.close();
      events.close();
    },
  };
}

/**
 * The cgroup files hold only the containers of the engine on this host: they are read when the
 * engine is reached through a local socket and the tree is readable; each container whose cgroup
 * is not found there is still sampled by the engine.
 */
export function statsSource(ctx: Pick<AppContext, 'config' | 'docker' | 'log'>, local = isLocalSocket(ctx.config.dockerHost)): StatsSource {
  const engine = new EngineStatsSource(ctx.docker);
  return (local && CgroupStatsSource.detect(ctx.config.cgroupRoot, engine, ctx.log)) || engine;
}

const isLocalSocket = (dockerHost: string | undefined) => !dockerHost || dockerHost.startsWith('unix://');
