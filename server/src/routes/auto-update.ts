import type { FastifyInstance } from 'fastify';
import { autoUpdateApi } from '@berth/contract';
import type { Services } from '../app-services';
import { route } from '../lib/route';

/** Auto-update: the global policy and runs (of the local environment), a schedule's next run, and each app's and compose project's override. */
export function autoUpdateRoutes(app: FastifyInstance, { environments }: Services): void {
  environments.local.ctx.afterStart(() => environments.local.autoUpdate.startSchedules());

  route(app, autoUpdateApi.get, () => environments.local.autoUpdate.settings());
  route(app, autoUpdateApi.put, (req) => environments.local.autoUpdate.setGlobal(req.body));
  route(app, autoUpdateApi.run, () => environments.local.autoUpdate.runNow());
  route(app, autoUpdateApi.runs, () => environments.local.autoUpdate.runs());
  route(app, autoUpdateApi.runById, (req) => environments.local.autoUpdate.run(req.params.id));
  route(app, autoUpdateApi.app, (req) => req.scope.autoUpdate.forApp(req.params.name));
  route(app, autoUpdateApi.putApp, (req) => req.scope.autoUpdate.setApp(req.params.name, req.body));
  route(app, autoUpdateApi.project, (req) => req.scope.autoUpdate.forProject(req.params.name));
  route(app, autoUpdateApi.putProject, (req) => req.scope.autoUpdate.setProject(req.params.name, req.body));
  route(app, autoUpdateApi.nextRun, (req) => environments.local.autoUpdate.nextRun(req.query.schedule));
}
