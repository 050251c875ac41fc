import { LOCAL_ENVIRONMENT } from '@berth/contract';
import type { AppContext } from '../../context';
import { EnvironmentsRepo } from '../../db/environments-repo';
import { deriveKey, open, seal } from '../../lib/secret-box';
import { EnvironmentScopes } from './environment-scopes';
import { EnvironmentsService, type ScopeView } from './environments';
import { environmentContext } from './scope-context';

/**
 * The environments: `admin` (their CRUD and status) and `scopes`, each environment's services
 * built by `buildScope` on first use over its own context (engine, engine status, compose
 * settings; the rest is `ctx`'s). Environment secrets are sealed under a key of their own,
 * derived from the signing key. The whole context: a stored environment's engine is made from
 * Berth's config with the environment's connection.
 */
export function createEnvironments<S extends ScopeView>(
  ctx: AppContext,
  signingKey: Uint8Array,
  buildScope: (id: string, envCtx: AppContext) => S,
) {
  const environmentsKey = deriveKey(signingKey, 'environments');
  const box = {
    seal: (plain: string) => seal(environmentsKey, plain),
    open: (sealed: string) => open(environmentsKey, sealed),
  };
  const scopes: EnvironmentScopes<S> = new EnvironmentScopes<S>((id) => {
    if (id === LOCAL_ENVIRONMENT) return buildScope(id, ctx);
    const parts = admin.connectionParts(id);
    if (!parts) return null;
    const env = environmentContext(ctx, id, parts, (key) => admin.rememberHostKey(id, key));
    const scope = buildScope(id, env.ctx);
    return {
      ...scope,
      close: async () => {
        await scope.close();
        env.close();
      },
    };
  });
  const admin = new EnvironmentsService(ctx, new EnvironmentsRepo(ctx.db), box, scopes);
  return { scopes, admin };
}
