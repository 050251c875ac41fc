import {
  isThresholdEvent,
  LOCAL_ENVIRONMENT,
  type HostOverview,
  type Rule,
  type ThresholdEvent,
} from '@berth/contract';
import type { Uses } from '../../context';
import { NotFoundError } from '../../errors';
import { readDisk } from '../host/host-proc';
import type { HostService } from '../host/host';
import type { StatsHistory } from '../stats/stats-history';
import type { NotifyInput } from './index';
import { judge, nextState, type Reading, type Verdict } from './thresholds';

/** The engine's disk-usage call walks every volume: at most this often. */
const VOLUME_EVERY_MS = 10 * 60_000;
const LIMIT_KEPT_MS = 60_000;
const GB = 1e9;
const PROJECT = 'com.docker.compose.project';
const HOST_KINDS = ['host_cpu', 'host_memory', 'data_disk', 'engine_disk'] as const;
type HostKind = (typeof HOST_KINDS)[number];

const WHAT: Record<ThresholdEvent, string> = {
  app_cpu: 'CPU',
  app_memory: 'memory',
  host_cpu: 'CPU',
  host_memory: 'memory',
  data_disk: "disk of Berth's data folder",
  engine_disk: "disk of the engine's data root",
  volume_size: 'size',
};

interface Judged {
  subject: string;
  app?: string;
  verdict: Verdict;
  value: number | null;
}

export interface ThresholdDeps {
  rules: () => Rule[];
  notify: (n: NotifyInput) => void;
  history: StatsHistory;
  host: HostService;
  /** The engine runs on Berth's host: /proc, statfs and DATA_DIR are its own. */
  local: boolean;
}

const pct = (used: number, total: number) => (total > 0 ? (used / total) * 100 : 0);
const round1 = (v: number) => Math.round(v * 10) / 10;

/**
 * Threshold rules of one environment, looked at every THRESHOLD_CHECK_SECONDS while any exists:
 * an app's CPU or memory (from the stats history), the host's CPU and memory, the disks of
 * DATA_DIR (local environment) and of the engine's data root, a volume's size (the engine's
 * disk-usage call, at most every 10 minutes). Each rule and subject fires once, and again only
 * after it recovered (thresholds.ts); the rule's quiet period applies on top (notify()).
 */
export class ThresholdWatch {
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  /**
   * Firing or not, by `<rule id>|<event>|<subject>`: an edited threshold or window is judged against
   * the state the rule had (raised above a firing reading, it says recovered; it does not fire again
   * on an edit alone), while a rule switched to another kind starts over.
   */
  private readonly states = new Map<string, boolean>();
  private readonly hostSeries = new Map<HostKind, Reading[]>();
  private volumes: { at: number; sizes: Map<string, number> } | null = null;
  private readonly cpuLimits = new Map<string, { at: number; cpus: number | null }>();

  constructor(
    private readonly ctx: Uses<'docker' | 'log', 'dataDir' | 'thresholdCheckMs'>,
    private readonly env: string,
    private readonly deps: ThresholdDeps,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.ctx.config.thresholdCheckMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async tick(now = Date.now()): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const rules = this.deps
        .rules()
        .filter((r) => isThresholdEvent(r.event) && r.threshold !== null)
        .filter((r) => !r.scope.environment || r.scope.environment === this.env);
      if (!rules.length) {
        this.states.clear();
        this.hostSeries.clear();
        return;
      }
      const host = rules.some((r) => r.event !== 'volume_size') ? await this.deps.host.overview() : null;
      if (!this.timer) return;
      this.recordHost(host, rules, now);
      const live = new Set<string>();
      for (const rule of rules) {
        const judged = await this.judgeRule(rule, host, now);
        // Closed while the engine answered: the database may be closed too.
        if (!this.timer) return;
        for (const j of judged) {
          const key = `${rule.id}|${rule.event}|${j.subject}`;
          live.add(key);
          const next = nextState(this.states.get(key) ?? false, j.verdict);
          this.states.set(key, next.firing);
          if (next.fire || next.recovered) this.fire(rule, j, next.recovered);
        }
      }
      for (const key of [...this.states.keys()]) if (!live.has(key)) this.states.delete(key);
    } catch (err) {
      this.ctx.log.warn({ err, environment: this.env }, 'threshold rules could not be checked');
    } finally {
      this.ticking = false;
    }
  }

  private windowMs(rule: Rule): number {
    return Math.round(rule.for_minutes * 60_000);
  }

  /** Keeps the host readings the host rules' longest window needs. */
  private recordHost(host: HostOverview | null, rules: Rule[], now: number): void {
    const values: Record<HostKind, number | null> = {
      host_cpu: this.deps.local ? (host?.cpu_percent ?? null) : null,
      host_memory: this.deps.local && host?.mem_used != null ? pct(host.mem_used, host.mem_total) : null,
      engine_disk: host?.disk ? pct(host.disk.used, host.disk.total) : null,
      data_disk: null,
    };
    if (this.env === LOCAL_ENVIRONMENT && rules.some((r) => r.event === 'data_disk')) {
      const disk = readDisk(this.ctx.config.dataDir);
      values.data_disk = disk ? pct(disk.used, disk.total) : null;
    }
    for (const kind of HOST_KINDS) {
      const windows = rules.filter((r) => r.event === kind).map((r) => this.windowMs(r));
      const value = values[kind];
      if (!windows.length || value === null) {
        this.hostSeries.delete(kind);
        continue;
      }
      const keep = Math.max(...windows) + 2 * this.ctx.config.thresholdCheckMs;
      const series = (this.hostSeries.get(kind) ?? []).filter((r) => r.t >= now - keep);
      series.push({ t: now, value });
      this.hostSeries.set(kind, series);
    }
  }

  private async judgeRule(rule: Rule, host: HostOverview | null, now: number): Promise<Judged[]> {
    const threshold = rule.threshold!;
    const event = rule.event as ThresholdEvent;
    const slack = this.ctx.config.thresholdCheckMs + 1000;
    if (event === 'app_cpu' || event === 'app_memory') return this.judgeApps(rule, event, host, now);
    if (event === 'volume_size') {
      const sizes = await this.volumeSizes(now);
      return [...sizes.sizes]
        .filter(([name]) => !rule.scope.volume || rule.scope.volume === name)
        .map(([name, size]) => ({
          subject: name,
          verdict: judge([{ t: sizes.at, value: size / GB }], threshold, 0, now, VOLUME_EVERY_MS + slack),
          value: size / GB,
        }));
    }
    const series = this.hostSeries.get(event) ?? [];
    return [
      {
        subject: 'host',
        verdict: judge(series, threshold, this.windowMs(rule), now, slack),
        value: series.at(-1)?.value ?? null,
      },
    ];
  }

  private async judgeApps(
    rule: Rule,
    event: 'app_cpu' | 'app_memory',
    host: HostOverview | null,
    now: number,
  ): Promise<Judged[]> {
    let names = [...this.deps.history.latest.keys()].filter((n) => !rule.scope.app || rule.scope.app === n);
    if (rule.scope.project) {
      const members = await this.ctx.docker.listContainers({
        filters: { label: [`${PROJECT}=${rule.scope.project}`] },
      });
      const inProject = new Set(members.map((c) => (c.Names[0] ?? '').replace(/^\//, '')));
      names = names.filter((n) => inProject.has(n));
    }
    const windowMs = this.windowMs(rule);
    const seconds = Math.ceil(windowMs / 1000) + 2;
    const out: Judged[] = [];
    for (const app of names) {
      if (!this.timer) break;
      const latest = this.deps.history.latest.get(app);
      if (!latest) continue;
      let base: number;
      if (event === 'app_cpu') {
        const hostCpus = host?.cpus || 1;
        base = rule.of === 'host' ? hostCpus : ((await this.cpuLimit(app, now)) ?? hostCpus);
      } else base = rule.of === 'host' ? (host?.mem_total ?? latest.mem_total) : latest.mem_total;
      const buckets = this.deps.history.recent(app, seconds, now);
      const step = buckets.length > 1 ? buckets[1]!.t - buckets[0]!.t : 1;
      const readings = buckets.map((b) => ({
        t: b.t * 1000,
        value: event === 'app_cpu' ? b.cpuSum / b.n / base : pct(b.memSum / b.n, base),
      }));
      const verdict = judge(readings, rule.threshold!, windowMs, now, step * 1000 + 2000);
      out.push({ subject: app, app, verdict, value: readings.at(-1)?.value ?? null });
    }
    return out;
  }

  /** CPUs an app may use (NanoCpus, or its quota over its period), null when unlimited; kept a minute. */
  private async cpuLimit(app: string, now: number): Promise<number | null> {
    const kept = this.cpuLimits.get(app);
    if (kept && now - kept.at < LIMIT_KEPT_MS) return kept.cpus;
    let cpus: number | null = null;
    try {
      const h = (await this.ctx.docker.inspectContainer(app)).HostConfig;
      if (h.NanoCpus) cpus = h.NanoCpus / 1e9;
      else if (h.CpuQuota && h.CpuQuota > 0) cpus = h.CpuQuota / (h.CpuPeriod || 100_000);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
    this.cpuLimits.set(app, { at: now, cpus });
    return cpus;
  }

  private async volumeSizes(now: number): Promise<{ at: number; sizes: Map<string, number> }> {
    if (this.volumes && now - this.volumes.at < VOLUME_EVERY_MS) return this.volumes;
    // Stamped before the call, so a failing engine is not asked again at every tick.
    this.volumes = { at: now, sizes: this.volumes?.sizes ?? new Map() };
    const usage = await this.ctx.docker.diskUsage('volume');
    const sizes = new Map<string, number>();
    for (const v of usage.Volumes ?? []) if (v.UsageData && v.UsageData.Size >= 0) sizes.set(v.Name, v.UsageData.Size);
    this.volumes = { at: Date.now(), sizes };
    return this.volumes;
  }

  /** The rule fired (or, with `recovered`, its subject went back below the threshold). */
  private fire(rule: Rule, j: Judged, recovered: boolean): void {
    const event = rule.event as ThresholdEvent;
    const unit = event === 'volume_size' ? ' GB' : ' %';
    const of = event.startsWith('app_') ? (rule.of === 'host' ? ' of the host' : ' of its limit') : '';
    const who = event === 'volume_size' ? `Volume ${j.subject}` : j.app ? j.app : `The host of ${this.env}`;
    const span = event === 'volume_size' ? '' : ` for ${rule.for_minutes} min`;
    const now = j.value === null ? '' : ` (now ${round1(j.value)}${unit})`;
    const state = recovered ? 'back at or below' : 'above';
    this.deps.notify({
      event,
      rule_id: rule.id,
      environment: this.env,
      ...(j.app ? { app: j.app } : {}),
      title: `${who}: ${WHAT[event]} ${state} ${rule.threshold}${unit}${of}${span}`,
      message: `${who} on ${this.env}: ${WHAT[event]} ${state} ${rule.threshold}${unit}${of}${span}${now}.`,
      details: {
        state: recovered ? 'recovered' : 'firing',
        subject: j.subject,
        environment: this.env,
        threshold: rule.threshold!,
        ...(j.value === null ? {} : { value: round1(j.value) }),
        ...(event === 'volume_size' ? {} : { for_minutes: rule.for_minutes }),
      },
    });
  }
}
