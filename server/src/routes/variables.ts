import type { FastifyInstance } from 'fastify';
import { variablesApi } from '@berth/contract';
import { route } from '../lib/route';
import type { Services } from '../app-services';

export function variablesRoutes(app: FastifyInstance, { variables }: Services): void {
  route(app, variablesApi.list, () => variables.list());
  route(app, variablesApi.save, (req) => variables.save(req.body));
}
