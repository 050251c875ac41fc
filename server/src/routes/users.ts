import type { FastifyInstance, FastifyRequest } from 'fastify';
import { usersApi } from '@berth/contract';
import type { Services } from '../app-services';
import { route } from '../lib/route';
import { requirePrincipal } from '../plugins/auth';

/**
 * Settings > Users: accounts and their roles (admins only, from the contract). Every change but
 * ending sessions is confirmed with the acting admin's password (and TOTP), never from an API key.
 */
export function usersRoutes(app: FastifyInstance, { auth }: Services): void {
  const confirm = (req: FastifyRequest, body: { current_password?: string; totp_code?: string } | undefined) =>
    auth.confirmUserAdmin(requirePrincipal(req), body, req.ip);

  route(app, usersApi.list, () => auth.userAdmin.list());
  route(app, usersApi.create, async (req) => {
    const { current_password: _p, totp_code: _c, ...user } = req.body;
    await confirm(req, req.body);
    return auth.userAdmin.create(user);
  });
  route(app, usersApi.update, async (req) => {
    const { current_password: _p, totp_code: _c, ...change } = req.body;
    auth.userAdmin.assertNotOwnCredentials(requirePrincipal(req).userId, req.params.id, change);
    await confirm(req, req.body);
    return auth.userAdmin.update(req.params.id, change);
  });
  route(app, usersApi.endSessions, (req) => {
    const ended = auth.userAdmin.endSessions(req.params.id);
    return { msg: `Ended ${ended} session${ended === 1 ? '' : 's'} of user ${req.params.id}.` };
  });
  route(app, usersApi.remove, async (req) => {
    await confirm(req, req.body ?? undefined);
    auth.userAdmin.remove(req.params.id);
    return { msg: `User ${req.params.id} deleted.` };
  });
}
