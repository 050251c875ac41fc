import type { FastifyInstance } from 'fastify';
import { policyApi } from '@berth/contract';
import type { Services } from '../app-services';
import { route } from '../lib/route';
import { requirePrincipal } from '../plugins/auth';

/** Each environment's policy for non-admins: readable by operators (forms mark refused fields), changed by admins (audited). */
export function policyRoutes(app: FastifyInstance, { policies }: Services): void {
  route(app, policyApi.get, (req) => policies.answer(req.params.env));
  route(app, policyApi.put, (req) => policies.put(req.params.env, req.body, requirePrincipal(req).username));
}
