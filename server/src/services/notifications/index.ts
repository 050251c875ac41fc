import {
  isThresholdEvent,
  type Delivery,
  type NotifyEvent,
  type Rule,
  type RuleBody,
  type RulePatch,
} from '@berth/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Uses } from '../../context';
import { NotificationsRepo } from '../../db/notifications-repo';
import type { EngineStatus } from '../../docker/engine-status';
import { NotFoundError, ValidationError } from '../../errors';
import { deriveKey } from '../../lib/secret-box';
import type { EventHistory } from '../events/event-history';
import type { ComposeFailure } from '../projects/projects-actions';
import { ChannelsService } from './channels';
import { send, type Notification } from './senders';
import { ThresholdWatch, type ThresholdDeps } from './threshold-watch';
import { containerWatcher, engineWatcher, type Candidate } from './watch';

export type { Notification } from './senders';
export { ChannelsService } from './channels';

/**
 * Notification channels, rules and deliveries; close it to stop the retries. Channel secrets are
 * sealed under a key of their own, derived from the signing key.
 */
export function createNotifications(
  ctx: Uses<'db' | 'log', 'notifyRetryDelaysMs'>,
  signingKey: Uint8Array,
): NotificationService {
  const repo = new NotificationsRepo(ctx.db);
  const secretsKey = deriveKey(signingKey, 'notification-channels');
  return new NotificationService(repo, new ChannelsService(repo, secretsKey), ctx.config.notifyRetryDelaysMs, ctx.log);
}

/** What ProjectActionsService calls when a compose action fails on environment `environment`. */
export function composeFailureNotifier(notifications: NotificationService, environment: string) {
  return ({ project, action, service }: ComposeFailure) =>
    notifications.notify({
      event: 'compose_failed',
      environment,
      project,
      title: `${action} of ${project}${service ? `/${service}` : ''} failed`,
      message: `The compose action ${action} on project ${project}${service ? ` (service ${service})` : ''} on ${environment} failed; its output is on the project's page.`,
      details: { project, action, environment, ...(service ? { service } : {}) },
    });
}

const HISTORY_KEPT_MS = 30 * 24 * 3600 * 1000;

/** What other features pass to `notify()` (auto-update, update checks, compose actions). */
export interface NotifyInput extends Notification {
  event: NotifyEvent;
  /** For that one rule only (a threshold rule judged its own readings). */
  rule_id?: number;
}

/** One environment's threshold rules, checked every THRESHOLD_CHECK_SECONDS once Berth listens. */
export function createThresholdWatch(
  ctx: Uses<'docker' | 'log' | 'afterStart', 'dataDir' | 'thresholdCheckMs'>,
  env: string,
  notifications: NotificationService,
  deps: Omit<ThresholdDeps, 'rules' | 'notify'>,
): ThresholdWatch {
  const watch = new ThresholdWatch(ctx, env, {
    ...deps,
    rules: () => notifications.rules(),
    notify: (n) => notifications.notify(n),
  });
  ctx.afterStart(() => watch.start());
  return watch;
}

/**
 * Rules, the quiet period and delivery. `notify()` returns at once: each matching rule's
 * channels get a delivery row and are sent in the background, retried with back-off
 * (`retryDelaysMs`), and the row ends `sent` or `failed` with the last error.
 */
export class NotificationService {
  /** Last message per rule and subject, for the quiet period. */
  private readonly lastSent = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly repo: NotificationsRepo,
    readonly channels: ChannelsService,
    private readonly retryDelaysMs: number[],
    private readonly log: FastifyBaseLogger,
  ) {
    repo.pruneDeliveries(Date.now() - HISTORY_KEPT_MS);
  }

  rules(): Rule[] {
    return this.repo.rules();
  }

  addRule(body: RuleBody): Rule {
    this.assertChannels(body.channels);
    assertThreshold(body);
    const id = this.repo.insertRule(body, new Date().toISOString());
    return this.repo.rule(id)!;
  }

  editRule(id: number, patch: RulePatch): Rule {
    const rule = this.repo.rule(id);
    if (!rule) throw new NotFoundError('notification rule', id);
    const next = { ...rule, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
    this.assertChannels(next.channels);
    assertThreshold(next);
    this.repo.updateRule(id, next, new Date().toISOString());
    return this.repo.rule(id)!;
  }

  removeRule(id: number): void {
    if (!this.repo.deleteRule(id)) throw new NotFoundError('notification rule', id);
  }

  history(limit: number): Delivery[] {
    return this.repo.deliveries(limit);
  }

  /** Sends a test message through one channel now, once, and answers with its delivery. */
  async test(channelId: number): Promise<Delivery> {
    const channel = this.channels.get(channelId);
    const n: Notification = {
      event: 'test',
      environment: 'local',
      title: 'Test message from Berth',
      message: `This is a test of the notification channel ${channel.name}.`,
      details: { channel: channel.name },
    };
    const id = this.repo.insertDelivery(
      { channel_id: channelId, channel_name: channel.name, event: 'test', title: n.title },
      Date.now(),
    );
    await this.attempt(id, channelId, n, 1, false);
    return this.repo.delivery(id)!;
  }

  /** Queues `n` for every rule it matches; never throws, never waits for a send. */
  notify(n: NotifyInput | Candidate): void {
    if (this.closed) return;
    try {
      for (const rule of this.repo.rules()) {
        if (rule.event !== n.event || !inScope(rule, n)) continue;
        if ('rule_id' in n && n.rule_id !== undefined && n.rule_id !== rule.id) continue;
        let message = n;
        if ('starts' in n && n.starts) {
          const since = Date.now() - rule.within_minutes * 60_000;
          const count = n.starts.filter((t) => t >= since).length;
          if (count < rule.restarts) continue;
          message = {
            ...n,
            message: `The container ${n.app} on ${n.environment} started ${count} times in ${rule.within_minutes} minutes.`,
            details: { ...n.details, starts: count },
          };
        }
        const key = `${rule.id}|${n.environment}|${n.app ?? n.project ?? ''}|${n.details.state ?? ''}|${n.details.subject ?? ''}`;
        const last = this.lastSent.get(key);
        if (last !== undefined && Date.now() - last < rule.quiet_minutes * 60_000) continue;
        this.lastSent.set(key, Date.now());
        for (const channelId of rule.channels) this.queue(channelId, message);
      }
    } catch (err) {
      this.log.error({ err }, 'could not queue a notification');
    }
  }

  /**
   * Follows one environment's container events and engine reachability; returns the unsubscribe.
   * A death (died, OOM) carries the app's diagnosis in one line when `diagnose` can read it.
   */
  watch(
    environment: string,
    history: EventHistory,
    engine: EngineStatus,
    diagnose?: (app: string) => Promise<string>,
  ): () => void {
    const emit = (c: NotifyInput) => {
      if (!diagnose || !c.app || (c.event !== 'container_died' && c.event !== 'oom')) return this.notify(c);
      void diagnose(c.app)
        .then((line) => ({ ...c, message: `${c.message} ${line}`, details: { ...c.details, diagnosis: line } }))
        // Gone already (removed with --rm) or unreadable: the event's own words still go out.
        .catch(() => c)
        .then((n) => {
          // Berth may have shut down while the diagnosis was read.
          if (!this.closed) this.notify(n);
        })
        .catch((err: unknown) => this.log.warn({ err }, 'could not send a death notification'));
    };
    const offEvents = history.onRecorded(containerWatcher(environment, emit));
    const offEngine = engineWatcher(environment, engine, (c) => this.notify(c));
    return () => {
      offEvents();
      offEngine();
    };
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private assertChannels(ids: number[]): void {
    const missing = ids.filter((id) => !this.repo.channel(id));
    if (missing.length)
      throw new ValidationError(`Unknown notification channel ${missing.join(', ')}.`, [
        { field: 'channels', message: 'Unknown channel.' },
      ]);
  }

  private queue(channelId: number, n: Notification): void {
    const channel = this.repo.channel(channelId);
    if (!channel) return;
    const id = this.repo.insertDelivery(
      { channel_id: channelId, channel_name: channel.name, event: n.event, title: n.title },
      Date.now(),
    );
    void this.attempt(id, channelId, n, 1, true);
  }

  private async attempt(
    id: number,
    channelId: number,
    n: Notification,
    attempt: number,
    retry: boolean,
  ): Promise<void> {
    let error: string;
    try {
      const channel = this.channels.settings(channelId);
      if (!channel) throw new Error('The channel was removed.');
      await send(channel.body, n);
      this.repo.updateDelivery(id, { status: 'sent', attempts: attempt, error: null }, Date.now());
      return;
    } catch (err) {
      error = err instanceof Error ? err.message : 'unknown error';
    }
    const delay = this.retryDelaysMs[attempt - 1];
    const again = retry && delay !== undefined && !this.closed;
    this.repo.updateDelivery(id, { status: again ? 'pending' : 'failed', attempts: attempt, error }, Date.now());
    if (!again) {
      this.log.warn({ delivery: id, channel: channelId, error }, 'notification not delivered');
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(id, channelId, n, attempt + 1, true);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }
}

/** A threshold rule needs its threshold; the other rules take none. */
function assertThreshold(r: Pick<Rule, 'event' | 'threshold'>): void {
  const needs = isThresholdEvent(r.event);
  if (needs === (r.threshold !== null)) return;
  throw new ValidationError(
    needs ? `A ${r.event} rule needs a threshold.` : `Only threshold rules take a threshold; ${r.event} does not.`,
    [{ field: 'threshold', message: needs ? 'Set a threshold.' : 'Leave it empty for this event.' }],
  );
}

function inScope(rule: Rule, n: Notification): boolean {
  const s = rule.scope;
  return (
    (!s.environment || s.environment === n.environment) &&
    (!s.app || s.app === n.app) &&
    (!s.project || s.project === n.project)
  );
}
