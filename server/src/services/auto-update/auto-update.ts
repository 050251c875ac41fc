import type { ProjectRevisions } from '../revisions/project-revisions';
import { Cron } from 'croner';
import type {
  App,
  AppAutoUpdate,
  AutoUpdateItem,
  AutoUpdateOverride,
  AutoUpdatePolicy,
  AutoUpdateRun,
  AutoUpdateSettings,
  ProjectAutoUpdate as ProjectAutoUpdateView,
} from '@berth/contract';
import type { Uses } from '../../context';
import { AutoUpdateRepo } from '../../db/auto-update-repo';
import { healthGate } from '../apps/health-gate';
import { findSelfContainer } from '../self-update/self-container';
import { NotFoundError, ValidationError } from '../../errors';
import { PROJECT_LABEL } from '../../docker/names';
import type { AppsService } from '../apps/apps';
import type { AppUpdateService } from '../apps/apps-update';
import {
  checkSchedule,
  DEFAULT_POLICY,
  effectivePolicy,
  isSchedule,
  nextRun,
  imageLabels,
  ownPolicyLabels,
  setMinScheduleInterval,
  chooseVersionMove,
  skippedTags,
} from './auto-update-policy';
import { ProjectAutoUpdate, serviceTarget, type ProjectTarget } from './auto-update-projects';
import { reportRun, type Announce } from './auto-update-report';
import type { ProjectsService } from '../projects/projects';

/** Schedules are looked for again this often, so a newly labelled app gets its own schedule. */
const RESYNC_SCHEDULE = '*/10 * * * *';
const NO_OVERRIDE: AutoUpdateOverride = {
  enabled: null,
  mode: null,
  schedule: null,
  settle_seconds: null,
  version_policy: null,
};

/** What a run goes over: apps, and compose projects with the services to check. */
interface Targets {
  apps: { app: App; policy: AutoUpdatePolicy }[];
  projects: ProjectTarget[];
}

/**
 * Scheduled auto-update of one environment's apps and compose projects: check the registry, then
 * notify only or update (an app through the same swap as a one-click update, a project's changed
 * services through compose, see ProjectAutoUpdate), with a health gate; what fails the gate is
 * put back and the digest remembered as bad. Berth's own container is never touched (Settings →
 * Update is its path).
 */
export class AutoUpdateService {
  private readonly repo: AutoUpdateRepo;
  private readonly projectUpdates: ProjectAutoUpdate;
  private jobs = new Map<string, Cron>();
  private running: { id: number; done: Promise<void> } | null = null;
  private closed = false;

  constructor(
    private readonly ctx: Uses<
      'composeReady' | 'db' | 'docker' | 'log' | 'registryAuth' | 'registryTags',
      | 'containerName'
      | 'dataDir'
      | 'hostname'
      | 'autoUpdateMinIntervalMs'
      | 'autoUpdateRunsKept'
      | 'autoUpdateRunsMaxAgeMs'
    >,
    private readonly env: string,
    private readonly apps: AppsService,
    private readonly updates: AppUpdateService,
    private readonly projects: ProjectsService,
    /** Where a finished run is told: the notification rules and the audit log (as the user `auto-update`). */
    private readonly announce: Announce | null = null,
    /** Where each project update is recorded as a revision (issue 34). */
    revisions: ProjectRevisions | null = null,
  ) {
    this.repo = new AutoUpdateRepo(ctx.db, env);
    setMinScheduleInterval(ctx.config.autoUpdateMinIntervalMs);
    this.projectUpdates = new ProjectAutoUpdate(ctx, projects, this.repo, revisions);
  }

  settings(): AutoUpdateSettings {
    const policy = this.global();
    return {
      ...policy,
      next_run_at: nextRun(policy.schedule),
      min_interval_seconds: this.ctx.config.autoUpdateMinIntervalMs / 1000,
      time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    };
  }

  async setGlobal(policy: AutoUpdatePolicy): Promise<AutoUpdateSettings> {
    checkSchedule(policy.schedule);
    this.repo.setPolicy('global', '', policy);
    await this.syncSchedules();
    return this.settings();
  }

  async forApp(name: string): Promise<AppAutoUpdate> {
    const info = await this.apps.inspect(name);
    const image = info.Image ? await this.ctx.docker.inspectImage(info.Image).catch(() => null) : null;
    const labels = ownPolicyLabels(info.Config.Labels ?? {}, image?.Config?.Labels);
    const override = this.repo.policy('app', name) ?? NO_OVERRIDE;
    return {
      override,
      effective: effectivePolicy(this.global(), override, labels),
      labels,
      last: this.lastResult(name),
    };
  }

  async setApp(name: string, override: AutoUpdateOverride): Promise<AppAutoUpdate> {
    checkSchedule(override.schedule);
    const project = (await this.apps.inspect(name)).Config.Labels?.[PROJECT_LABEL];
    if (project)
      throw new ValidationError(
        `${name} belongs to compose project ${project}, which is updated service by service: set auto-update on the project.`,
      );
    this.repo.setPolicy('app', name, override);
    await this.syncSchedules();
    return this.forApp(name);
  }

  /** A project's override, and per service with a container what applies and its last result. */
  async forProject(name: string): Promise<ProjectAutoUpdateView> {
    await this.projects.resolveExisting(name);
    const override = this.repo.policy('project', name) ?? NO_OVERRIDE;
    const global = this.global();
    const states = (await this.projectUpdates.services(null, name)).get(name) ?? [];
    const services = states
      .map((s) => ({
        name: s.name,
        effective: effectivePolicy(global, override, s.labels),
        labels: s.labels,
        last: this.lastResult(serviceTarget(name, s.name)),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
    const last = services.flatMap((s) => (s.last ? [s.last] : [])).sort((a, b) => b.run_id - a.run_id)[0] ?? null;
    return { override, effective: effectivePolicy(global, override, {}), labels: {}, last, services };
  }

  async setProject(name: string, override: AutoUpdateOverride): Promise<ProjectAutoUpdateView> {
    checkSchedule(override.schedule);
    await this.projects.resolveExisting(name);
    this.repo.setPolicy('project', name, override);
    await this.syncSchedules();
    return this.forProject(name);
  }

  /** When `schedule` fires next (a 400 naming it when croner cannot read it). */
  nextRun(schedule: string): { next_run_at: string | null } {
    checkSchedule(schedule);
    return { next_run_at: nextRun(schedule) };
  }

  runs(): AutoUpdateRun[] {
    return this.repo.runs(50);
  }

  run(id: number): AutoUpdateRun {
    const run = this.repo.run(id);
    if (!run) throw new NotFoundError('auto-update run', String(id));
    return run;
  }

  /** Starts a run over every enabled app and project (or answers the one under way). */
  async runNow(): Promise<{ id: number }> {
    const before = this.runningId();
    if (before !== null) return { id: before };
    const targets = await this.targets(() => true);
    // A scheduled run may have begun while the apps were read.
    return { id: this.runningId() ?? this.start('manual', targets) };
  }

  /** Starts the schedules (after the server is ready); never holds up the start, even with the engine away. */
  startSchedules(): void {
    this.syncSchedules().catch((err: unknown) =>
      this.ctx.log.warn({ err }, 'auto-update: the schedules could not be set up'),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.jobs.values()) job.stop();
    this.jobs.clear();
    await this.running?.done;
  }

  private runningId(): number | null {
    return this.running?.id ?? null;
  }

  private global(): AutoUpdatePolicy {
    const stored = this.repo.policy('global', '');
    if (!stored) return DEFAULT_POLICY;
    return {
      enabled: stored.enabled ?? DEFAULT_POLICY.enabled,
      mode: stored.mode ?? DEFAULT_POLICY.mode,
      schedule: stored.schedule ?? DEFAULT_POLICY.schedule,
      settle_seconds: stored.settle_seconds ?? DEFAULT_POLICY.settle_seconds,
      version_policy: stored.version_policy ?? DEFAULT_POLICY.version_policy,
    };
  }

  /** Enabled apps and compose services (Berth itself left out) whose effective policy `pick` accepts. */
  private async targets(pick: (p: AutoUpdatePolicy) => boolean): Promise<Targets> {
    const [list, self, images] = await Promise.all([
      this.apps.list(),
      findSelfContainer(this.ctx.docker, {
        containerName: this.ctx.config.containerName,
        hostname: this.ctx.config.hostname,
      }),
      imageLabels(this.ctx.docker),
    ]);
    const global = this.global();
    const overrides = this.repo.policies('app');
    const apps = list
      // Compose containers are updated through their project, never swapped behind compose's back.
      .filter((app) => app.Id !== self.container?.Id && !app.Config.Labels[PROJECT_LABEL])
      .map((app) => ({
        app,
        policy: effectivePolicy(
          global,
          overrides.get(app.name) ?? null,
          ownPolicyLabels(app.Config.Labels, app.Image ? images.get(app.Image) : null),
        ),
      }))
      .filter((t) => t.policy.enabled && pick(t.policy));
    return { apps, projects: await this.projectUpdates.targets(global, self.container?.Id ?? null, pick) };
  }

  private start(trigger: string, targets: Targets): number {
    const id = this.repo.startRun(trigger);
    const done = this.execute(id, targets).finally(() => {
      this.running = null;
    });
    this.running = { id, done };
    return id;
  }

  private async execute(id: number, targets: Targets): Promise<void> {
    const results: AutoUpdateItem[] = [];
    const since = Date.now();
    for (const { app, policy } of targets.apps) {
      if (this.closed) break;
      results.push(await this.one(app.name, policy, since));
      this.repo.saveResults(id, results, false);
    }
    for (const project of targets.projects) {
      if (this.closed) break;
      results.push(...(await this.projectUpdates.run(project, since)));
      this.repo.saveResults(id, results, false);
    }
    this.repo.saveResults(id, results, true);
    reportRun(this.repo.run(id)!, this.env, this.ctx.log, this.announce);
    const { autoUpdateRunsKept: keep, autoUpdateRunsMaxAgeMs: maxAge } = this.ctx.config;
    this.repo.pruneRuns(keep, new Date(Date.now() - maxAge).toISOString());
  }

  /**
   * One app: with a version policy, the newest newer tag in range (not failed before) first, else
   * (or with `digest`) its own tag when it moved; through the health gate, put back when it fails.
   * `since`: when the run began (tag lists read since are not read again).
   */
  private async one(name: string, policy: AutoUpdatePolicy, since: number): Promise<AutoUpdateItem> {
    let from: string | null = null;
    let to: string | null = null;
    let toTag: string | null = null;
    const item = (result: AutoUpdateItem['result'], reason: string | null): AutoUpdateItem => ({
      name,
      result,
      reason,
      from_digest: from,
      to_digest: to,
      ...(toTag ? { to_tag: toTag } : {}),
    });
    try {
      const check = await this.updates.check(name, Date.now() - since);
      from = check.update.localDigests[0] ?? null;
      const { move, skipped } = chooseVersionMove(
        check.update.image,
        check.update.newerTags,
        policy.version_policy,
        (ref) => this.repo.isBadDigest(name, ref),
      );
      const gate = (id: string) => healthGate(this.ctx.docker, id, policy.settle_seconds * 1000);
      if (move) {
        toTag = move.tag;
        if (policy.mode === 'notify') return item('update_available', `${move.tag} is available.`);
        const out = await this.updates.replace(name, {
          by: 'auto-update',
          source: 'auto-update',
          gate,
          image: move.ref,
        });
        if (out.rolledBack === null) return item('updated', `Moved to ${move.tag} (${policy.version_policy}).`);
        this.repo.rememberBadDigest(name, move.ref);
        return item('rolled_back', out.rolledBack);
      }
      to = check.update.remoteDigest;
      if (!check.isUpdatable) return item('up_to_date', skipped.length ? skippedTags(skipped) : check.reason);
      if (to && this.repo.isBadDigest(name, to))
        return item('up_to_date', `Skipped ${to}: it failed the health gate before; waiting for a newer image.`);
      if (policy.mode === 'notify') return item('update_available', null);
      const out = await this.updates.replace(name, { by: 'auto-update', source: 'auto-update', gate });
      if (out.rolledBack === null) return item('updated', null);
      if (to) this.repo.rememberBadDigest(name, to);
      return item('rolled_back', out.rolledBack);
    } catch (err) {
      return item('failed', err instanceof Error ? err.message : String(err));
    }
  }

  private lastResult(name: string): AppAutoUpdate['last'] {
    for (const run of this.repo.runs(50)) {
      const hit = run.results.find((r) => r.name === name);
      if (hit) return { ...hit, run_id: run.id, at: run.finished_at ?? run.started_at };
    }
    return null;
  }

  /** One cron job per schedule in use (global, overrides, labels) and one that looks again every 10 minutes. */
  private async syncSchedules(): Promise<void> {
    if (this.closed) return;
    const overrides = [...this.repo.policies('app').values(), ...this.repo.policies('project').values()];
    const wanted = new Set([this.global().schedule, ...overrides.flatMap((o) => (o.schedule ? [o.schedule] : []))]);
    try {
      const targets = await this.targets(() => true);
      for (const t of targets.apps) wanted.add(t.policy.schedule);
      for (const t of targets.projects) for (const expr of t.schedules) wanted.add(expr);
    } catch (err) {
      this.ctx.log.warn({ err }, 'auto-update: could not read the apps for their schedules');
    }
    wanted.add(RESYNC_SCHEDULE);
    if (this.closed) return;
    for (const [expr, job] of this.jobs) {
      if (!wanted.has(expr)) {
        job.stop();
        this.jobs.delete(expr);
      }
    }
    for (const expr of wanted) {
      if (this.jobs.has(expr)) continue;
      // A schedule stored before the minimum interval existed is not run more often than it allows.
      if (expr !== RESYNC_SCHEDULE && !isSchedule(expr)) {
        this.ctx.log.warn(
          { schedule: expr },
          'auto-update: schedule runs more often than the minimum interval; ignored',
        );
        continue;
      }
      this.jobs.set(expr, new Cron(expr, { protect: true }, () => void this.fire(expr)));
    }
  }

  private async fire(expr: string): Promise<void> {
    try {
      if (expr === RESYNC_SCHEDULE) await this.syncSchedules();
      const targets = await this.targets((p) => p.schedule === expr);
      if (targets.apps.length === 0 && targets.projects.length === 0) return;
      // Another schedule's run (or a manual one) goes first; this one follows rather than being lost.
      while (this.running) await this.running.done;
      if (!this.closed) this.start(expr, targets);
    } catch (err) {
      this.ctx.log.warn({ err, schedule: expr }, 'auto-update: a scheduled run could not start');
    }
  }
}
