import type { FastifyInstance } from 'fastify';
import { gitApi } from '@berth/contract';
import type { EngineScope, Services } from '../app-services';
import { route } from '../lib/route';
import { requirePrincipal } from '../plugins/auth';
import type { GitScope } from '../services/git';

/** The largest webhook body read (GitHub caps its payloads at 25 MB; pushes are far smaller). */
const HOOK_BODY_LIMIT = 5 * 1024 * 1024;

const gitScope = (scope: EngineScope): GitScope => ({ ...scope, composeDir: scope.ctx.config.composeDir });

/** Git credentials, projects from git and their sync, and the push webhook. */
export function gitRoutes(app: FastifyInstance, { git }: Services): void {
  const { credentials, sources, sync } = git;
  app.addHook('onReady', async () => sync.start());

  route(app, gitApi.credentials, () => credentials.list());
  route(app, gitApi.createCredential, (req) => credentials.create(req.body));
  route(app, gitApi.credential, (req) => credentials.get(req.params.id));
  route(app, gitApi.updateCredential, (req) => credentials.update(req.params.id, req.body));
  route(app, gitApi.deleteCredential, (req) => credentials.delete(req.params.id));

  const opts = { usesCompose: true };
  route(app, gitApi.fromGit, (req) => sources.create(gitScope(req.scope), req.body, requirePrincipal(req)), opts);
  route(app, gitApi.status, (req) => sources.gitState(gitScope(req.scope), req.params.name), opts);
  route(app, gitApi.pull, (req) => sources.pull(gitScope(req.scope), req.params.name, requirePrincipal(req)), opts);
  route(app, gitApi.deploy, (req) => sources.deploy(gitScope(req.scope), req.params.name, requirePrincipal(req)), opts);
  route(
    app,
    gitApi.discard,
    (req) => sources.discard(gitScope(req.scope), req.params.name, requirePrincipal(req)),
    opts,
  );

  // The signature is over the exact bytes sent: the body is read raw, whatever its type.
  void app.register(async (hooks) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: HOOK_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    route(hooks, gitApi.hook, (req) =>
      sync.hook(req.params.hook_id, req.headers, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)),
    );
  });
}
