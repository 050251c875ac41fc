import { isThresholdEvent, type NotifyEvent, type Rule } from '@berth/contract';

export const EVENT_LABELS: Record<NotifyEvent, string> = {
  container_died: 'Container crashed (non-zero exit; not stops made through Berth or the CLI)',
  container_stopped: 'Container stopped (by anyone, any exit code)',
  container_started: 'Container started',
  health_changed: 'Health changed (healthy, unhealthy, starting)',
  oom: 'Killed for memory (OOM)',
  unhealthy: 'Health check failing',
  restart_loop: 'Restart loop',
  update_available: 'Update available',
  auto_update: 'Auto-update done or rolled back',
  compose_failed: 'Compose action failed',
  backup_failed: 'Backup failed',
  restore_drill_failed: 'Restore drill failed',
  environment_down: 'Environment unreachable / recovered',
  auto_healed: 'Auto-heal restarted a container',
  auto_heal_gave_up: 'Auto-heal gave up (restart cap reached)',
  app_cpu: 'App CPU above a threshold',
  app_memory: 'App memory above a threshold',
  host_cpu: 'Host CPU above a threshold',
  host_memory: 'Host memory above a threshold',
  data_disk: "Disk of Berth's data folder above a threshold",
  engine_disk: "Disk of the engine's data root above a threshold",
  volume_size: 'Volume size above a threshold',
};

/** A threshold rule's condition in words ("above 80 % of its limit for 5 min"); empty for the others. */
export function conditionText(r: Pick<Rule, 'event' | 'threshold' | 'for_minutes' | 'of'>): string {
  if (!isThresholdEvent(r.event) || r.threshold === null) return r.event === 'restart_loop' ? 'restart loop' : '';
  if (r.event === 'volume_size') return `above ${r.threshold} GB`;
  const of = r.event.startsWith('app_') ? (r.of === 'host' ? ' of the host' : ' of its limit') : '';
  return `above ${r.threshold} %${of} for ${r.for_minutes} min`;
}
