import type { FastifyInstance } from 'fastify';
import { notificationsApi as api, roleAllows } from '@berth/contract';
import { route } from '../lib/route';
import { requirePrincipal } from '../plugins/auth';
import { maskChannel } from '../services/notifications/channels';
import type { Services } from '../app-services';

export function notificationsRoutes(app: FastifyInstance, { notifications: n }: Services): void {
  route(app, api.channels, (req) => {
    const list = n.channels.list();
    return roleAllows(requirePrincipal(req).role, 'admin') ? list : list.map(maskChannel);
  });
  route(app, api.addChannel, (req) => n.channels.add(req.body));
  route(app, api.editChannel, (req) => n.channels.edit(req.params.id, req.body));
  route(app, api.removeChannel, (req) => {
    n.channels.remove(req.params.id);
    return { msg: 'Channel removed.' };
  });
  route(app, api.testChannel, (req) => n.test(req.params.id));
  route(app, api.rules, () => n.rules());
  route(app, api.addRule, (req) => n.addRule(req.body));
  route(app, api.editRule, (req) => n.editRule(req.params.id, req.body));
  route(app, api.removeRule, (req) => {
    n.removeRule(req.params.id);
    return { msg: 'Rule removed.' };
  });
  route(app, api.history, (req) => n.history(req.query.limit));
}
