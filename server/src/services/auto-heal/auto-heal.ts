import type { AutoHealOverride, AutoHealPolicy, EngineEventRecord, TargetAutoHeal } from '@berth/contract';
import type { Uses } from '../../context';
import type { AutoHealRepo, AutoHealScope } from '../../db/auto-heal-repo';
import { NotFoundError } from '../../errors';
import type { AuditRecord } from '../audit/audit';
import type { NotifyInput } from '../notifications';
import { findSelfContainer } from '../self-update/self-container';
import { effectiveHeal, nextHealStep } from './policy';

const HOUR_MS = 3600_000;
/** The engine's default health check interval (30 s) when the image sets none. */
const DEFAULT_INTERVAL_MS = 30_000;
/** A re-check waits a little past the next probe's time, so the probe has ended. */
const RECHECK_SLACK_MS = 500;
const PROJECT = 'com.docker.compose.project';
const SERVICE = 'com.docker.compose.service';

export interface AutoHealDeps {
  /** Where an auto-heal restart is written as an event (the engine's own restart events follow it). */
  note: (e: { actorId: string; name: string; action: string; attributes: Record<string, string> }) => void;
  /** Restarts and the give-up go to the notification rules (`auto_healed`, `auto_heal_gave_up`). */
  notify: (n: NotifyInput) => void;
  audit: (r: AuditRecord) => void;
}

interface Watched {
  timer: NodeJS.Timeout | null;
  busy: boolean;
}

/** The global default, kept for every environment under env ''. */
export class AutoHealDefaults {
  constructor(private readonly repo: AutoHealRepo) {}

  get(): AutoHealPolicy {
    return effectiveHeal(this.repo.policy('', 'global', ''));
  }

  put(p: AutoHealPolicy): AutoHealPolicy {
    this.repo.setPolicy('', 'global', '', p);
    return this.get();
  }
}

/**
 * Auto-heal of one environment, driven by its engine events: a `health_status: unhealthy` event
 * makes it inspect that one container; if its failing streak is short of the policy's checks, it
 * looks again when enough probes should have failed (that container only, while it stays
 * unhealthy). Restarts wait out the back-off and stop at the hourly cap, notified once until the
 * container is healthy again or an operator resets it (the give-up is kept in the database, so a
 * restart of Berth neither forgets it nor notifies again). Berth's own container is left alone.
 */
export class AutoHealService {
  private readonly watched = new Map<string, Watched>();
  private off: (() => void) | null = null;

  constructor(
    private readonly ctx: Uses<'docker' | 'log', 'containerName' | 'hostname'>,
    private readonly env: string,
    private readonly repo: AutoHealRepo,
    private readonly deps: AutoHealDeps,
  ) {}

  start(onRecorded: (fn: (e: EngineEventRecord) => void) => () => void): void {
    this.off = onRecorded((e) => this.onEvent(e));
  }

  close(): void {
    this.off?.();
    this.off = null;
    for (const w of this.watched.values()) if (w.timer) clearTimeout(w.timer);
    this.watched.clear();
  }

  forApp(name: string): TargetAutoHeal {
    return this.describe('app', name, [this.repo.policy(this.env, 'app', name)]);
  }

  setApp(name: string, o: AutoHealOverride): TargetAutoHeal {
    this.repo.setPolicy(this.env, 'app', name, o);
    return this.forApp(name);
  }

  forService(project: string, service: string): TargetAutoHeal {
    const target = `${project}/${service}`;
    return this.describe('service', target, [this.repo.policy(this.env, 'service', target)]);
  }

  setService(project: string, service: string, o: AutoHealOverride): TargetAutoHeal {
    this.repo.setPolicy(this.env, 'service', `${project}/${service}`, o);
    return this.forService(project, service);
  }

  /** Forgets that auto-heal gave up on an app, and its restarts of the last hour; it looks again now. */
  resetApp(name: string): TargetAutoHeal {
    this.reset(name, null, { name: [`^/${name}$`] });
    return this.forApp(name);
  }

  resetService(project: string, service: string): TargetAutoHeal {
    this.reset(`${project}/${service}`, `${project}/${service}`, {
      label: [`${PROJECT}=${project}`, `${SERVICE}=${service}`],
    });
    return this.forService(project, service);
  }

  private reset(target: string, service: string | null, filters: Record<string, string[]>): void {
    this.repo.clearGaveUp(this.env, target, true);
    // The engine says `unhealthy` only when the status changes: a container still unhealthy is looked at here.
    void this.ctx.docker
      .listContainers({ filters })
      .then((list) => {
        for (const c of list) void this.check(c.Id, (c.Names[0] ?? '').replace(/^\//, ''), service);
      })
      .catch((err: unknown) => this.ctx.log.warn({ err, target }, 'auto-heal could not look at a reset target'));
  }

  private describe(scope: AutoHealScope, target: string, overrides: (AutoHealOverride | null)[]): TargetAutoHeal {
    const restarts = this.repo.restarts(this.env, target, Date.now() - HOUR_MS);
    const last = restarts.at(-1);
    const gave = this.repo.gaveUp(this.env, target);
    return {
      override: overrides[0] ?? { enabled: null, checks: null, max_restarts: null, backoff_seconds: null },
      effective: this.policy(scope === 'service' ? target : null, scope === 'app' ? target : null),
      state: {
        restarts_last_hour: restarts.length,
        last_restart_at: last === undefined ? null : new Date(last).toISOString(),
        gave_up_at: gave === null ? null : new Date(gave).toISOString(),
      },
    };
  }

  /** A compose service's override, then the container's own (by name), then the global default. */
  private policy(service: string | null, app: string | null): AutoHealPolicy {
    return effectiveHeal(
      this.repo.policy('', 'global', ''),
      service ? this.repo.policy(this.env, 'service', service) : null,
      app ? this.repo.policy(this.env, 'app', app) : null,
    );
  }

  private onEvent(e: EngineEventRecord): void {
    if (e.type !== 'container') return;
    const project = e.attributes[PROJECT];
    const service = e.attributes[SERVICE];
    const target = project && service ? `${project}/${service}` : e.name;
    if (e.action === 'health_status: unhealthy')
      void this.check(e.actor_id, e.name, project && service ? target : null);
    else if (e.action === 'health_status: healthy') {
      this.repo.clearGaveUp(this.env, target);
      this.forget(e.actor_id);
    } else if (e.action === 'die' || e.action === 'destroy') {
      // A restart of ours ends in `die` too: the check under way keeps its own entry.
      if (!this.watched.get(e.actor_id)?.busy) this.forget(e.actor_id);
    }
  }

  private forget(id: string): void {
    const w = this.watched.get(id);
    if (w?.timer) clearTimeout(w.timer);
    this.watched.delete(id);
  }

  private later(id: string, name: string, service: string | null, ms: number): void {
    const w = this.watched.get(id) ?? { timer: null, busy: false };
    if (w.timer) clearTimeout(w.timer);
    w.timer = setTimeout(() => {
      w.timer = null;
      void this.check(id, name, service);
    }, ms);
    w.timer.unref();
    this.watched.set(id, w);
  }

  /** Looks at one unhealthy container and restarts it, waits, or gives up. */
  private async check(id: string, name: string, service: string | null): Promise<void> {
    const target = service ?? name;
    const w = this.watched.get(id) ?? { timer: null, busy: false };
    if (w.busy || !this.off) return;
    w.busy = true;
    this.watched.set(id, w);
    try {
      const p = this.policy(service, name);
      if (!p.enabled || this.repo.gaveUp(this.env, target) !== null) return;
      const c = await this.ctx.docker.inspectContainer(id);
      if (!c.State.Running || c.State.Health?.Status !== 'unhealthy') return;
      const self = await findSelfContainer(this.ctx.docker, {
        containerName: this.ctx.config.containerName,
        hostname: this.ctx.config.hostname,
      });
      // Closed meanwhile (Berth shuts down), or it is Berth itself.
      if (!this.off || self.container?.Id === c.Id) return;
      const intervalNs = c.Config.Healthcheck?.Interval;
      const intervalMs = intervalNs ? intervalNs / 1e6 : DEFAULT_INTERVAL_MS;
      const now = Date.now();
      const restarts = this.repo.restarts(this.env, target, now - HOUR_MS);
      const step = nextHealStep(p, c.State.Health.FailingStreak ?? 0, intervalMs, restarts, now);
      if (step.kind === 'wait_checks' || step.kind === 'wait_backoff') {
        w.busy = false;
        this.later(id, name, service, step.ms + (step.kind === 'wait_checks' ? RECHECK_SLACK_MS : 0));
      } else if (step.kind === 'give_up') this.giveUp(target, name, service, p);
      else await this.restart(id, target, name, service, restarts.length + 1);
    } catch (err) {
      if (!(err instanceof NotFoundError)) this.ctx.log.warn({ err, container: name }, 'auto-heal check failed');
    } finally {
      w.busy = false;
    }
  }

  private async restart(id: string, target: string, name: string, service: string | null, nth: number) {
    const now = Date.now();
    this.repo.addRestart(this.env, target, now);
    const project = service ? service.slice(0, service.indexOf('/')) : undefined;
    let status = 200;
    try {
      await this.ctx.docker.restartContainer(id);
    } catch (err) {
      status = 500;
      this.ctx.log.warn({ err, container: name }, 'auto-heal restart failed');
    }
    this.ctx.log.info({ container: name, restarts: nth }, 'auto-heal restarted an unhealthy container');
    this.deps.note({ actorId: id, name, action: 'auto-heal restart', attributes: { restarts: String(nth) } });
    this.deps.audit({
      user: 'auto-heal',
      client: 'auto-heal',
      method: 'POST',
      route: 'auto-heal restart',
      target: name,
      status,
      summary: `Auto-heal: restarted ${name} after failed health checks (restart ${nth} this hour) (environment ${this.env})`,
    });
    this.deps.notify({
      event: 'auto_healed',
      environment: this.env,
      app: name,
      ...(project ? { project } : {}),
      title: `${name} was restarted by auto-heal`,
      message: `Auto-heal restarted ${name} on ${this.env}: its health check kept failing (restart ${nth} in the last hour).`,
      details: { app: name, environment: this.env, restarts: nth, ...(status !== 200 ? { failed: 'yes' } : {}) },
    });
  }

  private giveUp(target: string, name: string, service: string | null, p: AutoHealPolicy): void {
    this.repo.setGaveUp(this.env, target, Date.now());
    const project = service ? service.slice(0, service.indexOf('/')) : undefined;
    this.ctx.log.warn({ container: name, restarts: p.max_restarts }, 'auto-heal gave up');
    this.deps.notify({
      event: 'auto_heal_gave_up',
      environment: this.env,
      app: name,
      ...(project ? { project } : {}),
      title: `Auto-heal gave up on ${name}`,
      message: `${name} on ${this.env} is still unhealthy after ${p.max_restarts} restarts by auto-heal in the last hour; auto-heal stops trying until it is healthy again.`,
      details: { app: name, environment: this.env, restarts: p.max_restarts },
    });
  }
}
