import type { Uses } from '../../context';
import { StreamRegistry } from './registry';

/** Every open live stream (SSE, WebSocket) of every environment, with the caps from the config. */
export function createStreams(ctx: Uses<never, 'streamsMaxPerUser' | 'streamsMaxTotal'>): StreamRegistry {
  return new StreamRegistry({ maxPerUser: ctx.config.streamsMaxPerUser, maxTotal: ctx.config.streamsMaxTotal });
}
