import type { FastifyInstance } from 'fastify';
import { auditApi } from '@berth/contract';
import { route } from '../lib/route';
import type { Services } from '../app-services';

export function auditRoutes(app: FastifyInstance, { audit }: Services): void {
  route(app, auditApi.list, (req) => audit.list(req.query));
  route(app, auditApi.export, (req, reply) => {
    const { format, ...query } = req.query;
    const stamp = new Date().toISOString().slice(0, 10);
    reply.header('Content-Disposition', `attachment; filename="berth-audit-${stamp}.${format}"`);
    if (format === 'csv') return reply.type('text/csv; charset=utf-8').send(audit.csv(query));
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(audit.list(query)));
  });
}
