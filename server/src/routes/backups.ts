import type { FastifyInstance } from 'fastify';
import { backupsApi } from '@berth/contract';
import { route } from '../lib/route';
import type { Services } from '../app-services';

/** Backups (admin only): destinations, jobs, runs, archives, restore and drills. */
export function backupsRoutes(app: FastifyInstance, { backups, backupDestinations }: Services): void {
  route(app, backupsApi.destinations, () => backupDestinations.list());
  route(app, backupsApi.createDestination, (req) => backupDestinations.create(req.body));
  route(app, backupsApi.removeDestination, (req) => backupDestinations.remove(req.params.id));
  route(app, backupsApi.jobs, () => backups.jobs());
  route(app, backupsApi.createJob, (req) => backups.createJob(req.body));
  route(app, backupsApi.removeJob, (req) => backups.removeJob(req.params.id));
  route(app, backupsApi.runJob, (req) => backups.run(req.params.id));
  route(app, backupsApi.drillJob, (req) => backups.drill(req.params.id));
  route(app, backupsApi.runs, (req) => backups.runs(req.query.job_id));
  route(app, backupsApi.archives, (req) => backups.archives(req.query.job_id));
  route(app, backupsApi.verifyArchive, (req) => backups.verify(req.params.id));
  route(app, backupsApi.restore, (req) => backups.restore(req.body));
}
