import { LOCAL_ENVIRONMENT } from '@berth/contract';
import type { AppContext } from '../../context';
import { EnvironmentsRepo } from '../../db/environments-repo';
import { deriveKey, open, seal } from '../../lib/secret-box';
import { EnvironmentScopes } from './environment-scopes';
import { EnvironmentsService, type ScopeView } from './environments';
import { environmentContext, type AgentEndpoint } from './scope-context';
import { createAgents } from '../agents';
import { AgentEnvironments } from './agent-environments';
import type { AgentHub } from '../agents/agent-hub';

function agentEndpoint(hub: AgentHub, id: string): AgentEndpoint {
  const { socketPath, close } = hub.endpoint(id);
  return {
    socketPath,
    close,
    onChange: (fn) => hub.onChange(id, fn),
    onStats: (fn) => hub.onStats(id, fn),
  };
}

/**
 * The environments: `admin` (their CRUD and status) and `scopes`, each environment's services
 * built by `buildScope` on first use over its own context (engine, engine status, compose
 * settings; the rest is `ctx`'s). Environment secrets are sealed under a key of their own,
 * derived from the signing key. The whole context: a stored environment's engine is made from
 * Berth's config with the environment's connection; an agent environment's is its tunnel (`agents`).
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
    const agent = parts.url.kind === 'agent' ? agentEndpoint(agents, id) : undefined;
    const env = environmentContext(ctx, id, parts, (key) => admin.rememberHostKey(id, key), agent);
    const scope = buildScope(id, env.ctx);
    return {
      ...scope,
      close: async () => {
        await scope.close();
        env.close();
      },
    };
  });
  const agents = createAgents(ctx, signingKey);
  const admin = new EnvironmentsService(ctx, new EnvironmentsRepo(ctx.db), box, scopes, agents);
  return { scopes, admin, agents, agentEnvironments: new AgentEnvironments(ctx, admin, agents) };
}
