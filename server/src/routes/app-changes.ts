import type { FastifyInstance } from 'fastify';
import { appChangesApi } from '@berth/contract';
import { route } from '../lib/route';
import { envShownTo, requirePrincipal } from '../plugins/auth';
import { maskAppEnv } from '../services/auth/env-visibility';

/** Changes to an app that keep its container. */
export function appChangesRoutes(app: FastifyInstance): void {
  route(app, appChangesApi.rename, async (req) =>
    envShownTo(
      req,
      await req.scope.appChanges.rename(req.params.name, req.body.new_name, requirePrincipal(req).username),
      maskAppEnv,
    ),
  );
  route(app, appChangesApi.resources, async (req) =>
    envShownTo(
      req,
      await req.scope.appChanges.resources(req.params.name, req.body, requirePrincipal(req).username),
      maskAppEnv,
    ),
  );
  route(app, appChangesApi.connect, async (req) =>
    envShownTo(req, await req.scope.appChanges.connect(req.params.name, req.params.network, req.body), maskAppEnv),
  );
  route(app, appChangesApi.disconnect, async (req) =>
    envShownTo(
      req,
      await req.scope.appChanges.disconnect(req.params.name, req.params.network, req.body?.force),
      maskAppEnv,
    ),
  );
  route(app, appChangesApi.commit, (req) => req.scope.appChanges.commit(req.params.name, req.body));
}
