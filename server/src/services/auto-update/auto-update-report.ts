import type { AutoUpdateRun } from '@berth/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditRecord } from '../audit/audit';
import type { NotifyInput } from '../notifications';

/** Where a finished run is told: the notification rules and the audit log (as the user `auto-update`). */
export interface Announce {
  notify: (n: NotifyInput) => void;
  audit: (r: AuditRecord) => void;
}

/**
 * The one place a finished run is announced: the log, the notification rules (an available
 * update in notify mode; an update done, rolled back or failed) and one audit entry per app or
 * compose service (`<project>/<service>`) changed, as the user `auto-update`.
 */
export function reportRun(run: AutoUpdateRun, env: string, log: FastifyBaseLogger, announce: Announce | null): void {
  const changed = run.results.filter((r) => r.result !== 'up_to_date');
  log.info(
    { run: run.id, trigger: run.trigger, results: changed.map((r) => `${r.name}: ${r.result}`) },
    'auto-update run finished',
  );
  if (!announce) return;
  for (const r of changed) {
    const to = r.to_tag ? ` to ${r.to_tag}` : '';
    const words = {
      up_to_date: 'is up to date',
      update_available: r.to_tag ? `has ${r.to_tag} available` : 'has an update available',
      updated: `was updated${to}`,
      rolled_back: `was rolled back (${r.to_tag ?? 'the new version'} failed its health gate)`,
      failed: 'could not be updated',
    }[r.result];
    const details = {
      result: r.result,
      run: run.id,
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.to_digest ? { to_digest: r.to_digest } : {}),
      ...(r.to_tag ? { to_tag: r.to_tag } : {}),
    };
    const project = r.name.includes('/') ? r.name.slice(0, r.name.indexOf('/')) : null;
    announce.notify({
      event: r.result === 'update_available' ? 'update_available' : 'auto_update',
      environment: env,
      ...(project ? { project } : { app: r.name }),
      title: `${r.name} ${words}`,
      message: `Auto-update on ${env}: ${r.name} ${words}${r.reason ? ` (${r.reason})` : ''}.`,
      details,
    });
    if (r.result === 'update_available') continue;
    const status = r.result === 'updated' ? 200 : r.result === 'rolled_back' ? 409 : 500;
    announce.audit({
      user: 'auto-update',
      client: 'scheduler',
      method: 'POST',
      route: `auto-update run ${run.id}`,
      target: r.name,
      status,
      summary: `Auto-update: ${r.name} ${words}`,
    });
  }
}
