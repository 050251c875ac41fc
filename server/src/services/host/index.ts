import type { Uses } from '../../context';
import type { EngineEvents } from '../../docker/events';
import { onThisHost } from '../apps';
import { HostService } from './host';

/** One environment's host overview; /proc and the data root are read only when its engine runs on Berth's host. */
export function createHost(
  ctx: Uses<'docker' | 'log', 'dockerHost'>,
  environment: string,
  events: EngineEvents,
): HostService {
  return new HostService(ctx, onThisHost(environment, ctx), events);
}
