import type { FastifyInstance } from 'fastify';
import { backupsApi } from '@berth/contract';
import { route } from '../lib/route';
import { answerStreamed } from '../lib/streamed-answer';
import type { Services } from '../app-services';

/** Backups (admin only): destinations, jobs, runs, archives, restore and drills. */
export function backupsRoutes(app: FastifyInstance, { backups, backupDestinations }: Services): void {
  route(app, backupsApi.destinations, () => backupDestinations.list());
  route(app, backupsApi.createDestination, (req) => backupDestinations.create(req.body));
  route(app, backupsApi.removeDestination, (req) => backupDestinations.remove(req.params.id));
  route(app, backupsApi.testDestination, (req) => backupDestinations.test(req.params.id));
  route(app, backupsApi.jobs, () => backups.jobs());
  route(app, backupsApi.createJob, (req) => backups.createJob(req.body));
  route(app, backupsApi.updateJob, (req) => backups.updateJob(req.params.id, req.body));
  route(app, backupsApi.removeJob, (req) => backups.removeJob(req.params.id));
  route(app, backupsApi.runJob, (req) => backups.run(req.params.id));
  route(app, backupsApi.drillJob, (req) => backups.drill(req.params.id));
  route(app, backupsApi.runs, (req) => backups.runs(req.query.job_id));
  route(app, backupsApi.archives, (req) => backups.archives(req.query.job_id));
  route(app, backupsApi.verifyArchive, (req) => backups.verify(req.params.id));
  // Checked first, so a refusal is a plain JSON answer even when events were asked for.
  route(app, backupsApi.restore, async (req, reply) => {
    const restore = await backups.startRestore(req.body);
    return answerStreamed(req, reply, 'restore', (emit) => restore((p) => emit(p, 'progress')));
  });
}
