import type {
  AppDiagnosis,
  AuditEntry,
  AuditQuery,
  EngineEventRecord,
  EventsQuery,
  HistoryRange,
  StatsHistory,
} from '@berth/contract';
import type { ContainerDetail, Engine } from '../../docker/engine';
import type { AppsService } from './apps';
import { diagnose, type BaseDiagnosis } from './diagnosis';

/** Where a diagnosis looks beside the container: the kept engine events, the stats history, the audit log. */
export interface DiagnosisSources {
  events(q: EventsQuery): EngineEventRecord[];
  memory(app: string, range: HistoryRange): StatsHistory;
  audit(q: AuditQuery): AuditEntry[];
}

/** How far before the stop the memory curve reaches. */
const MEMORY_WINDOW_S = 300;
/** Events kept this long around the stop belong to it. */
const EVENTS_WINDOW_MS = 60_000;
/** A kill through Berth is audited once its answer went out: this long after the engine's event at most. */
const AUDIT_SLACK_MS = 30_000;
const NEAR_LIMIT = 0.95;
const KILLING = new Set(['killed', 'terminated', 'signal', 'oom']);

const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;

/**
 * Why an app stopped, with what Berth kept around it: the kill and its author (the kernel, a user
 * through Berth, the engine's API or CLI, or the host), the memory curve against the limit before
 * the stop, deaths in the last hour and the engine events around it.
 */
export class AppDiagnosisService {
  constructor(
    private readonly docker: Engine,
    private readonly apps: AppsService,
    private readonly sources: DiagnosisSources,
  ) {}

  async get(name: string): Promise<AppDiagnosis> {
    const info = await this.apps.inspect(name);
    return this.complete(await diagnose(this.docker, info), info);
  }

  /** `base` with the context the engine does not keep, as of `now`. */
  complete(base: BaseDiagnosis, info: ContainerDetail, now = Date.now()): AppDiagnosis {
    const stop = base.finishedAt && !base.running ? Date.parse(base.finishedAt) : null;
    const around =
      stop === null
        ? []
        : this.sources
            .events({
              type: 'container',
              name: base.name,
              since: stop - EVENTS_WINDOW_MS,
              until: stop + EVENTS_WINDOW_MS,
              limit: 50,
            })
            .reverse();
    const deaths = this.sources.events({
      type: 'container',
      action: 'die',
      name: base.name,
      since: now - 3600_000,
      limit: 1000,
    });
    const limit = info.HostConfig?.Memory || null;
    const memory =
      stop === null ? { limit, samples: [], nearLimitSeconds: 0 } : this.memoryBefore(base.name, stop, limit, now);
    const killed = stop !== null && KILLING.has(base.kind) ? this.killer(base, around, stop) : null;
    const partial = { ...base, killedBy: killed?.by ?? null, killedByText: killed?.text ?? null, memory };
    return {
      ...partial,
      restartsLastHour: deaths.length,
      events: around.map((e) => ({ time: e.time, action: e.action, attributes: e.attributes })),
      oneLine: oneLine(partial),
    };
  }

  private killer(base: BaseDiagnosis, around: EngineEventRecord[], stop: number) {
    const before = around.filter((e) => Date.parse(e.time) <= stop + 2000);
    if (base.oomKilled || before.some((e) => e.action === 'oom'))
      return { by: 'oom' as const, text: 'The kernel killed it: it ran out of memory.' };
    const kill = before.filter((e) => e.action === 'kill' || e.action === 'stop').at(-1);
    if (!kill) {
      const signal = base.exitCode !== null && base.exitCode > 128 ? ` (signal ${base.exitCode - 128})` : '';
      return {
        by: 'host' as const,
        text: `Killed from outside Docker${signal}: the engine recorded no kill or stop, so the host (a kill there, a shutdown) sent it.`,
      };
    }
    const how =
      kill.action === 'stop'
        ? 'stopped'
        : `killed${kill.attributes.signal ? ` with signal ${kill.attributes.signal}` : ''}`;
    const at = Date.parse(kill.time);
    const user = this.sources
      .audit({
        target: base.name,
        action: '/api/apps/actions',
        since: at - AUDIT_SLACK_MS,
        until: at + AUDIT_SLACK_MS,
        limit: 20,
      })
      .find((a) => a.status < 400);
    return user
      ? { by: 'berth' as const, text: `It was ${how} through Berth by ${user.user ?? 'a user'}.` }
      : { by: 'engine' as const, text: `It was ${how} through the engine's API or the docker CLI, not through Berth.` };
  }

  private memoryBefore(name: string, stop: number, limit: number | null, now: number) {
    // The 1 s history reaches 10 minutes back; older stops read the 10 s one.
    const history = this.sources.memory(name, now - stop < 540_000 ? '10m' : '24h');
    const samples = history.samples
      .filter((s) => {
        const t = Date.parse(s.time);
        return t <= stop && t >= stop - MEMORY_WINDOW_S * 1000;
      })
      .map((s) => ({ time: s.time, bytes: s.mem_max }));
    let near = 0;
    if (limit)
      for (let i = samples.length - 1; i >= 0 && samples[i]!.bytes >= limit * NEAR_LIMIT; i--) near += history.step;
    return { limit, samples, nearLimitSeconds: near };
  }
}

/** The diagnosis in one line (notifications), e.g. "Killed by the kernel: out of memory… It used 63.9 MiB of its 64 MiB limit for the 40 s before it died. Last line: …". */
export function oneLine(d: Omit<AppDiagnosis, 'restartsLastHour' | 'events' | 'oneLine'>): string {
  const parts = [d.summary];
  if (d.killedByText && d.killedBy !== 'oom') parts.push(d.killedByText);
  const { limit, samples, nearLimitSeconds } = d.memory;
  const peak = samples.length ? Math.max(...samples.map((s) => s.bytes)) : null;
  if (limit && peak !== null && nearLimitSeconds > 0)
    parts.push(`It used ${mib(peak)} of its ${mib(limit)} limit for the ${nearLimitSeconds} s before it died.`);
  else if (limit && peak !== null) parts.push(`Its memory peaked at ${mib(peak)} of its ${mib(limit)} limit.`);
  const last = d.lastLines.at(-1)?.text;
  if (last) parts.push(`Last line: ${last.length > 200 ? `${last.slice(0, 200)}…` : last}`);
  return parts.join(' ');
}
