import type { FastifyInstance } from 'fastify';
import { gitApi } from '@berth/contract';
import { gitScopeParts, type EngineScope, type Services } from '../app-services';
import { route } from '../lib/route';
import { requirePrincipal } from '../plugins/auth';
import { gitScopeOf } from '../services/git';

/** The largest webhook body read (GitHub caps its payloads at 25 MB; pushes are far smaller). */
const HOOK_BODY_LIMIT = 5 * 1024 * 1024;

/** Git credentials, projects and stacks from git and their sync, and the push webhook. */
export function gitRoutes(app: FastifyInstance, { git }: Services): void {
  const { credentials, sources, sync } = git;

  route(app, gitApi.credentials, () => credentials.list());
  route(app, gitApi.createCredential, (req) => credentials.create(req.body));
  route(app, gitApi.credential, (req) => credentials.get(req.params.id));
  route(app, gitApi.updateCredential, (req) => credentials.update(req.params.id, req.body));
  route(app, gitApi.deleteCredential, (req) => credentials.delete(req.params.id));

  // The same calls for a compose project and a swarm stack.
  const opts = { usesCompose: true };
  const kinds = [
    ['project', { ...gitApi, create: gitApi.fromGit, patch: gitApi.updateSource }],
    [
      'stack',
      {
        create: gitApi.stackFromGit,
        status: gitApi.stackStatus,
        patch: gitApi.updateStackSource,
        pull: gitApi.stackPull,
        deploy: gitApi.stackDeploy,
        discard: gitApi.stackDiscard,
      },
    ],
  ] as const;
  for (const [kind, def] of kinds) {
    const scope = (s: EngineScope) => gitScopeOf(gitScopeParts(s));
    route(app, def.create, (req) => sources.create(scope(req.scope), kind, req.body, requirePrincipal(req)), opts);
    route(app, def.status, (req) => sources.gitState(scope(req.scope), kind, req.params.name), opts);
    route(
      app,
      def.patch,
      (req) => sources.patch(scope(req.scope), kind, req.params.name, req.body, requirePrincipal(req)),
      opts,
    );
    const action = (a: 'pull' | 'deploy' | 'discard') =>
      route(app, def[a], (req) => sources[a](scope(req.scope), kind, req.params.name, requirePrincipal(req)), opts);
    action('pull');
    action('deploy');
    action('discard');
  }

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
