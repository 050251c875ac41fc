import type { FastifyInstance } from 'fastify';
import { autoHealApi } from '@berth/contract';
import type { Services } from '../app-services';
import { route } from '../lib/route';

/** Auto-heal: the global default and each app's and compose service's override. */
export function autoHealRoutes(app: FastifyInstance, { autoHealDefaults }: Services): void {
  route(app, autoHealApi.get, () => autoHealDefaults.get());
  route(app, autoHealApi.put, (req) => autoHealDefaults.put(req.body));
  route(app, autoHealApi.app, (req) => req.scope.autoHeal.forApp(req.params.name));
  route(app, autoHealApi.putApp, (req) => req.scope.autoHeal.setApp(req.params.name, req.body));
  route(app, autoHealApi.service, (req) => req.scope.autoHeal.forService(req.params.name, req.params.service));
  route(app, autoHealApi.putService, (req) =>
    req.scope.autoHeal.setService(req.params.name, req.params.service, req.body),
  );
  route(app, autoHealApi.resetApp, (req) => req.scope.autoHeal.resetApp(req.params.name));
  route(app, autoHealApi.resetService, (req) => req.scope.autoHeal.resetService(req.params.name, req.params.service));
}
