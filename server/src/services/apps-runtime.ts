import type { AppContext } from '../context';
import { EngineEvents } from '../docker/events';
import { EngineStatsSource, StatsHub } from '../docker/stats-hub';
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
    source: new EngineStatsSource(ctx.docker),
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
