import type { Uses } from '../../context';
import { EventsRepo } from '../../db/events-repo';
import type { EngineEvents } from '../../docker/events';
import { EventHistory } from './event-history';

/** One environment's kept engine events, recording from the start (retention from the config). */
export function createEventHistory(
  ctx: Uses<'db' | 'log', 'eventsMaxRows' | 'eventsRetentionMs'>,
  environment: string,
  events: EngineEvents,
): EventHistory {
  const history = new EventHistory(
    new EventsRepo(ctx.db),
    events,
    { environment, retentionMs: ctx.config.eventsRetentionMs, maxRows: ctx.config.eventsMaxRows },
    ctx.log,
  );
  history.start();
  return history;
}
