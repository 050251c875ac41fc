import type { FastifyInstance } from 'fastify';
import { usersApi } from '@berth/contract';
import type { Services } from '../app-services';
import { route } from '../lib/route';

/** Settings > Users: accounts and their roles (admins only, from the contract). */
export function usersRoutes(app: FastifyInstance, { auth }: Services): void {
  route(app, usersApi.list, () => auth.userAdmin.list());
  route(app, usersApi.create, (req) => auth.userAdmin.create(req.body));
  route(app, usersApi.update, (req) => auth.userAdmin.update(req.params.id, req.body));
  route(app, usersApi.endSessions, (req) => {
    const ended = auth.userAdmin.endSessions(req.params.id);
    return { msg: `Ended ${ended} session${ended === 1 ? '' : 's'} of user ${req.params.id}.` };
  });
  route(app, usersApi.remove, (req) => {
    auth.userAdmin.remove(req.params.id);
    return { msg: `User ${req.params.id} deleted.` };
  });
}
