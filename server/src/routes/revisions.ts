import type { FastifyInstance, FastifyRequest } from 'fastify';
import { revisionsApi, roleAllows, seesEnvValues } from '@berth/contract';
import { route } from '../lib/route';
import { requirePrincipal } from '../plugins/auth';
import type { RevisionReader } from '../services/revisions/project-revisions';

/** Only admins read a revision's .env values (others its keys); a viewer reads compose files with `environment:` masked. */
function readerOf(req: FastifyRequest): RevisionReader {
  const { role } = requirePrincipal(req);
  return { envValues: roleAllows(role, 'admin'), fileValues: seesEnvValues(role) };
}

/** Recorded deploys of projects and apps (issue 34). */
export function revisionsRoutes(app: FastifyInstance): void {
  route(app, revisionsApi.projectList, (req) => req.scope.projectRevisions.list(req.params.name));
  route(app, revisionsApi.projectGet, (req) =>
    req.scope.projectRevisions.get(req.params.name, req.params.rev, readerOf(req)),
  );
  route(app, revisionsApi.projectDiff, (req) =>
    req.scope.projectRevisions.diff(req.params.name, req.params.a, req.params.b, readerOf(req)),
  );
  route(
    app,
    revisionsApi.projectRollback,
    (req) =>
      req.scope.projectRollback.rollback(req.params.name, req.params.rev, requirePrincipal(req), req.body.dry_run),
    { usesCompose: true },
  );
  route(app, revisionsApi.appList, (req) => req.scope.deploy.revisions.list(req.params.name));
  route(app, revisionsApi.appRollback, (req) =>
    req.scope.deploy.revisions.rollback(req.params.name, req.params.rev, requirePrincipal(req)),
  );
}
