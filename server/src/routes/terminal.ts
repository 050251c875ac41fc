import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from '@fastify/websocket';
import { terminalApi } from '@berth/contract';
import type { EngineScope, Services } from '../app-services';
import { PolicyDeniedError, ValidationError } from '../errors';
import type { LiveStreamSlot } from '../lib/live-streams';
import { route, socketRoute } from '../lib/route';
import { requirePrincipal } from '../plugins/auth';
import type { Principal } from '../services/auth';
import type { TerminalRequest, TerminalService, TerminalTarget } from '../services/terminal/terminal';

/** What the checks before an upgrade found: who, the environment, the running container and a session slot. */
interface Checked {
  principal: Principal;
  env: EngineScope;
  target: TerminalTarget;
  release: () => void;
}

export function terminalRoutes(app: FastifyInstance, { terminals }: Services): void {
  route(app, terminalApi.appShells, async (req) => shellsOf(req.scope.terminal, (t) => t.app(req.params.name)));
  route(app, terminalApi.serviceShells, async (req) =>
    shellsOf(req.scope.terminal, (t) => t.service(req.params.project, req.params.service)),
  );

  /** Refuses before the upgrade (404/409 JSON; 429 over the user's cap); the slot is freed when the connection closes. */
  const check = async (
    req: FastifyRequest & { scope: EngineScope },
    find: (t: TerminalService) => Promise<TerminalTarget>,
  ): Promise<Checked> => {
    if (!req.ws) throw new ValidationError('This endpoint is a WebSocket: connect with an Upgrade request.');
    const principal = requirePrincipal(req);
    const env = req.scope;
    // Non-admins get the image's user unless the policy allows choosing one (user=0 is root in the container).
    const user = (req.query as TerminalRequest).user;
    if (user) await env.policy.check(principal, [{ rule: 'terminal_user', value: user, field: 'user' }]);
    const target = await find(env.terminal);
    // Berth's own container holds its database and keys (as for its files): only an admin opens a shell there.
    if (principal.role !== 'admin' && (await env.policy.isBerth(target.containerId)))
      throw new PolicyDeniedError(`${target.label} is Berth itself: only an admin may open a terminal in it.`, [
        { field: 'name', rule: 'bind_mounts', message: "Berth's own container" },
      ]);
    const release = terminals.reserve(principal.userId);
    req.raw.socket.once('close', release);
    return { principal, env, target, release };
  };
  const open = (
    socket: WebSocket,
    req: { query: TerminalRequest },
    { principal, env, target, release }: Checked,
    slot: LiveStreamSlot,
  ) =>
    terminals.run(
      socket,
      () => env.terminal.open(target, req.query),
      { user: principal.username, environment: env.id, target: target.label, revoked: slot.revoked },
      release,
    );

  socketRoute(app, terminalApi.appExec, { check: (req) => check(req, (t) => t.app(req.params.name)), open });
  socketRoute(app, terminalApi.serviceExec, {
    check: (req) => check(req, (t) => t.service(req.params.project, req.params.service)),
    open,
  });
}

async function shellsOf(terminal: TerminalService, find: (t: TerminalService) => Promise<TerminalTarget>) {
  return { shells: await terminal.shells(await find(terminal)) };
}
