import type { FastifyInstance } from 'fastify';
import { templateApi } from '@berth/contract';
import { route } from '../lib/route';
import type { Services } from '../app-services';

export function templatesRoutes(app: FastifyInstance, { templates }: Services): void {
  route(app, templateApi.list, () => templates.list());
  route(app, templateApi.create, (req) => templates.create(req.body));
  route(app, templateApi.get, (req) => templates.get(req.params.id));
  route(app, templateApi.remove, (req) => templates.remove(req.params.id));
  route(app, templateApi.refresh, (req) => templates.refresh(req.params.id));
  route(app, templateApi.item, (req) => templates.item(req.params.id));
}
