import type { FastifyInstance } from 'fastify';
import { registryApi } from '@berth/contract';
import { route } from '../lib/route';
import type { Services } from '../app-services';

/** Registry credentials (admin manages, operators list, test and browse). */
export function registriesRoutes(app: FastifyInstance, { registries }: Services): void {
  route(app, registryApi.list, () => registries.list());
  route(app, registryApi.create, (req) => registries.create(req.body));
  route(app, registryApi.testNew, (req) => registries.testNew(req.body));
  route(app, registryApi.get, (req) => registries.get(req.params.id));
  route(app, registryApi.update, (req) => registries.update(req.params.id, req.body));
  route(app, registryApi.remove, (req) => registries.remove(req.params.id));
  route(app, registryApi.test, (req) => registries.test(req.params.id));
  route(app, registryApi.repositories, (req) => registries.repositories(req.params.id, req.query));
  route(app, registryApi.tags, (req) => registries.tags(req.params.id, req.params.repo, req.query));
}
