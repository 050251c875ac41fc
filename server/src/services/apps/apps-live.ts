import {
  StreamEvent,
  type DashboardStatsQuery,
  type HistoryRange,
  type StatsHistory,
  type StreamStatus,
} from '@berth/contract';
import type { Uses } from '../../context';
import { inspectContainer, type ContainerDetail } from './containers';
import { openLogStream, readLogBatches, type LogLine } from '../../docker/logs';
import { bareName } from '../../docker/names';
import { DockerUnavailableError, NotFoundError } from '../../errors';
import type { SseStream } from '../../lib/sse';
import { withTimeout } from '../../lib/timeout';
import type { AppsRuntime } from './apps-runtime';
import { StatsTicker } from './stats-ticker';
import { droppingSender, endAtUntil, endOfRange, endsInPast, sendLogLines, type LogRange } from '../logs/log-range';

/** Without any event, a waiting log stream looks again this often (a safety net, not a poll loop). */
const RECHECK_MS = 30_000;
/** While the engine is away, how often a log stream tries it again. */
const ENGINE_RETRY_MS = 5_000;
const INSPECT_TIMEOUT_MS = 10_000;
/** Container events that can end a wait for a stopped container. */
const WAKE_ACTIONS = new Set(['start', 'restart', 'unpause', 'destroy', 'die']);

/**
 * Sends the newest data per key and drops older unsent data for that key while the client reads
 * slowly, so a slow viewer never makes the server queue samples.
 */
function latestWins(sse: SseStream): (key: string, data: unknown, event?: string) => void {
  const pending = new Map<string, { data: unknown; event: string }>();
  let flushing = false;
  const flush = async () => {
    flushing = true;
    while (pending.size && !sse.closed) {
      const [key, item] = pending.entries().next().value!;
      pending.delete(key);
      await sse.send(item.data, item.event);
    }
    flushing = false;
  };
  return (key, data, event = StreamEvent.update) => {
    pending.set(key, { data, event });
    if (!flushing) void flush();
  };
}

const appName = (info: ContainerDetail) => bareName(info.Name);

/** The live streams of the apps pages: logs, per-app stats and the dashboard. */
export class AppStreams {
  private ticker: StatsTicker | null = null;

  constructor(
    private readonly ctx: Uses<'docker' | 'engine' | 'log'>,
    private readonly rt: AppsRuntime,
  ) {}

  /**
   * Every running app's samples; apps that start or stop appear and disappear by engine events.
   * `tick`: one frame a second at most with every app that changed (StatsTicker).
   */
  dashboard(sse: SseStream, format: DashboardStatsQuery['format'] = 'samples'): void {
    if (format === 'tick') return (this.ticker ??= new StatsTicker(this.rt.hub)).watch(sse);
    const send = latestWins(sse);
    const off = this.rt.hub.watchAll({
      sample: (s) => send(s.name, s),
      removed: (name) => send(name, { name }, StreamEvent.remove),
    });
    sse.signal.addEventListener('abort', off, { once: true });
  }

  /** The kept samples of one app (its name's: a recreated app keeps its history). */
  history(target: ContainerDetail, range: HistoryRange): StatsHistory {
    return this.rt.history.query(appName(target), range);
  }

  stats(target: ContainerDetail, sse: SseStream): void {
    const name = appName(target);
    const send = latestWins(sse);
    const status = (s: StreamStatus['status']): StreamStatus => ({
      status: s,
      detail:
        s === 'running'
          ? `${name} is running.`
          : s === 'stopped'
            ? `${name} is not running; stats resume when it starts.`
            : `${name} was removed.`,
    });
    if (!target.State.Running) send('status', status('stopped'), StreamEvent.status);
    const off = this.rt.hub.watch(
      { id: target.Id, name, running: target.State.Running },
      {
        sample: (s) => send('sample', s),
        state: (s) => {
          if (s !== 'removed') return send('status', status(s), StreamEvent.status);
          void sse.send(status(s), StreamEvent.status).then(() => sse.close());
        },
      },
    );
    sse.signal.addEventListener('abort', off, { once: true });
  }

  /**
   * The last lines of the range (500 by default), then new ones as they come. While the app is
   * stopped (or the engine is away) the stream says so and waits for the engine event that ends
   * the wait; it then goes on from the last line it sent, by timestamp, so nothing is sent twice.
   * A range that ends in the past sends its lines and an `end` event; one that ends later ends
   * the stream then.
   */
  logs(target: ContainerDetail, sse: SseStream, range: LogRange): void {
    const run = endsInPast(range) ? this.pastLogs(target, sse, range) : this.followLogs(target, sse, range);
    run
      .catch((err: unknown) => {
        this.ctx.log.warn({ err, container: target.Name }, 'log stream failed');
        sse.comment('The log stream failed; reconnect to try again.');
      })
      .finally(() => sse.close());
  }

  private async pastLogs(target: ContainerDetail, sse: SseStream, range: LogRange): Promise<void> {
    await this.pump(target.Id, Boolean(target.Config.Tty), sse, range, {
      follow: false,
      tail: range.tail,
      after: sinceToAfter(range),
    });
    endOfRange(sse);
  }

  private async followLogs(target: ContainerDetail, sse: SseStream, range: LogRange): Promise<void> {
    const { engine } = this.ctx;
    const id = target.Id;
    const name = appName(target);
    let kicks = 0;
    let wake: (() => void) | null = null;
    const kick = () => {
      kicks++;
      wake?.();
    };
    const wait = (seen: number, ms: number) =>
      kicks !== seen || sse.closed
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(done, ms);
            function done() {
              clearTimeout(timer);
              wake = null;
              resolve();
            }
            wake = done;
          });
    let said: string | null = null;
    const say = async (status: StreamStatus['status'], detail: string) => {
      if (said === status) return;
      said = status;
      await sse.send({ status, detail } satisfies StreamStatus, StreamEvent.status);
    };

    const offEvents = this.rt.events.subscribe((e) => {
      if (e.kind === 'resync' || (e.id === id && WAKE_ACTIONS.has(e.action))) kick();
    });
    const offEngine = engine.onChange(kick);
    sse.signal.addEventListener('abort', kick);
    const cancelEnd = endAtUntil(sse, range);
    try {
      await this.rt.events.whenConnected();
      let info: ContainerDetail | null = target;
      let last = sinceToAfter(range);
      let backlogSent = false;
      while (!sse.closed) {
        const seen = kicks;
        if (!info) {
          try {
            info = await withTimeout(inspectContainer(this.ctx.docker, id), INSPECT_TIMEOUT_MS, 'inspect timed out');
          } catch (err) {
            if (err instanceof NotFoundError) return void (await say('removed', `${name} was removed.`));
            if (!(err instanceof DockerUnavailableError) && (err as { code?: string }).code !== 'ETIMEDOUT') throw err;
            engine.markUnreachable();
            await say('engine_unreachable', 'The Docker engine is not reachable; the log continues when it returns.');
            await wait(seen, ENGINE_RETRY_MS);
            continue;
          }
        }
        const running = info.State.Running;
        info = null;
        if (running || !backlogSent) {
          if (running) await say('running', `${name} is running.`);
          const started = Date.now();
          last = await this.pump(id, Boolean(target.Config.Tty), sse, range, {
            follow: running,
            tail: backlogSent ? undefined : range.tail,
            after: last,
          });
          backlogSent = true;
          // A follow the engine ends at once while the app still runs must not become a busy loop.
          if (running && Date.now() - started < 1000) await wait(seen, 1000);
          continue;
        }
        await say('stopped', `${name} is not running; the log continues when it starts.`);
        await wait(seen, RECHECK_MS);
      }
    } finally {
      cancelEnd();
      offEvents();
      offEngine();
      sse.signal.removeEventListener('abort', kick);
    }
  }

  /** Sends log lines until the engine stream ends or the client leaves; returns the last line's timestamp. */
  private async pump(
    id: string,
    tty: boolean,
    sse: SseStream,
    range: LogRange,
    opts: { follow: boolean; tail?: number; after?: bigint },
  ): Promise<bigint | undefined> {
    let last = opts.after;
    const fresh = (line: LogLine) =>
      (opts.after === undefined || line.nanos === null || line.nanos > opts.after) &&
      (range.untilNanos === undefined || line.nanos === null || line.nanos < range.untilNanos);
    // A followed json log (the web's log view) leaves lines out for a reader that cannot keep
    // up; the text format and a finite range keep back-pressure (every line, however late).
    const sender = opts.follow && range.json ? droppingSender(sse, range) : null;
    try {
      const stream = await openLogStream(this.ctx.docker, id, {
        follow: opts.follow,
        tail: opts.tail,
        afterNanos: opts.after,
        ...(range.untilNanos !== undefined && !opts.follow ? { untilNanos: range.untilNanos } : {}),
        timestamps: true,
        signal: sse.signal,
      });
      for await (const batch of readLogBatches(stream, tty)) {
        const lines = batch.filter(fresh);
        if (lines.length === 0) continue;
        if (!(sender ? sender.push(lines) : await sendLogLines(sse, lines, range))) break;
        const stamp = lines.findLast((l) => l.nanos !== null)?.nanos;
        if (stamp != null) last = stamp;
      }
    } catch (err) {
      // The engine stream broke (engine gone, container removed) or the client left: the caller looks again.
      if (!sse.closed) this.ctx.log.debug({ err, container: id }, 'log stream ended with an error');
    }
    await sender?.flush();
    return last;
  }
}

/** The range's inclusive `since` as the exclusive "after" point the stream resumes from. */
const sinceToAfter = (range: LogRange) => (range.sinceNanos === undefined ? undefined : range.sinceNanos - 1n);
