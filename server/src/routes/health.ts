import type { FastifyInstance } from 'fastify';
import { healthApi } from '@berth/contract';
import { route } from '../lib/route';
import type { Services } from '../app-services';

export function healthRoutes(app: FastifyInstance, { serverInfo }: Services): void {
  route(app, healthApi.get, () => serverInfo.health());
}
