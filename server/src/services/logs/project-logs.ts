import { Readable } from 'node:stream';
import { LogStreamEvent, type LogDownloadQuery, type LogRangeQuery } from '@berth/contract';
import type { Uses } from '../../context';
import { listComposeContainers, type LabelledContainer } from '../projects/compose-containers';
import type { EngineEvents } from '../../docker/events';
import { openLogStream, readLogBatches, readLogLines } from '../../docker/logs';
import type { SseStream } from '../../lib/sse';
import { engineRange, logFileName } from './app-logs';
import { droppingQueue, endsInPast, LOG_TAIL_LINES, parseLogRange, type LogRange } from './log-range';
import { mergeByTime, ReorderBuffer, tagged, type TaggedLine } from './log-merge';
import type { ProjectsService } from '../projects/projects';

/** How long a live line may wait for older lines of other containers. */
export const REORDER_WINDOW_MS = 500;
/** Lines held for reordering before the readers wait for the loop to release them (a slow client has lines dropped, not held). */
const MAX_HELD = 20_000;

/** The merged logs of every container of a compose project: live (SSE) and as a download. */
export class ProjectLogsService {
  constructor(
    private readonly ctx: Uses<'docker' | 'log'>,
    private readonly events: EngineEvents,
    private readonly projects: ProjectsService,
  ) {}

  /** The project's containers; 404 when it has neither containers nor a folder. */
  async containers(name: string): Promise<LabelledContainer[]> {
    const list = await listComposeContainers(this.ctx.docker, name);
    if (list.length === 0) await this.projects.resolveExisting(name);
    return list;
  }

  /** Every container's log of the range merged in time order, each line as `[time ]service | text`. */
  async download(name: string, q: LogDownloadQuery): Promise<{ filename: string; body: Readable }> {
    const containers = await this.containers(name);
    const range = parseLogRange(q, undefined);
    const merged = mergeByTime(await Promise.all(containers.map((c) => this.backlog(c, range, undefined))));
    async function* text() {
      let chunk = '';
      for await (const l of merged) {
        chunk += `${range.timestamps && l.ts ? `${l.ts} ` : ''}${l.service} | ${l.text}\n`;
        if (chunk.length >= 64 * 1024) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    }
    return { filename: logFileName(name), body: Readable.from(text()) };
  }

  /**
   * The last lines of each container (the range's tail applies to each), merged exactly; then
   * every container followed, merged live within REORDER_WINDOW_MS; containers of the project
   * that start later join. An `until` in the past ends with an `end` event after the backlog.
   */
  stream(name: string, containers: LabelledContainer[], sse: SseStream, q: Omit<LogRangeQuery, 'format'>): void {
    const range = parseLogRange(q, LOG_TAIL_LINES);
    this.run(name, containers, sse, range)
      .catch((err: unknown) => {
        this.ctx.log.warn({ err, project: name }, 'project log stream failed');
        sse.comment('The log stream failed; reconnect to try again.');
      })
      .finally(() => sse.close());
  }

  private async run(name: string, containers: LabelledContainer[], sse: SseStream, range: LogRange): Promise<void> {
    const opened = BigInt(Date.now()) * 1_000_000n;
    const last = new Map<string, bigint | undefined>();
    const known = new Map(containers.map((c) => [c.id, c]));
    let batch: TaggedLine[] = [];
    for await (const l of mergeByTime(await Promise.all(containers.map((c) => this.backlog(c, range, sse.signal))))) {
      last.set(l.container, l.nanos ?? undefined);
      batch.push(l);
      if (batch.length >= 1000 && !(await sse.send(batch.map(tagged), LogStreamEvent.lines))) return;
      if (batch.length >= 1000) batch = [];
    }
    if (batch.length && !(await sse.send(batch.map(tagged), LogStreamEvent.lines))) return;
    if (endsInPast(range)) return sse.end({ reason: 'until', detail: 'The requested time range is complete.' });

    const buffer = new ReorderBuffer<TaggedLine>(REORDER_WINDOW_MS);
    // A reader slower than the services gets the newest lines and a `dropped` count (as an app's log does).
    const sender = droppingQueue<TaggedLine>(sse, (lines) => sse.send(lines.map(tagged), LogStreamEvent.lines));
    const following = new Set<string>();
    let room: (() => void) | null = null;
    let arrived: (() => void) | null = null;
    const follow = async (c: LabelledContainer) => {
      if (following.has(c.id) || sse.closed) return;
      following.add(c.id);
      buffer.open(c.id);
      try {
        const info = await this.ctx.docker.inspectContainer(c.id);
        const after = last.has(c.name)
          ? last.get(c.name)
          : range.sinceNanos !== undefined && range.sinceNanos > opened
            ? range.sinceNanos - 1n
            : opened - 1n;
        const stream = await openLogStream(this.ctx.docker, c.id, {
          follow: true,
          timestamps: true,
          signal: sse.signal,
          ...(after !== undefined ? { afterNanos: after } : {}),
        });
        for await (const lines of readLogBatches(stream, Boolean(info.Config.Tty))) {
          const fresh = lines
            .filter((l) => after === undefined || l.nanos === null || l.nanos > after)
            .map((l) => ({ ...l, service: c.service, container: c.name }));
          buffer.push(c.id, fresh);
          const wakeSender = arrived as (() => void) | null;
          arrived = null;
          wakeSender?.();
          if (fresh.length) last.set(c.name, fresh.at(-1)!.nanos ?? last.get(c.name));
          while (buffer.size > MAX_HELD && !sse.closed) await new Promise<void>((resolve) => (room = resolve));
        }
      } catch (err) {
        if (!sse.closed) this.ctx.log.debug({ err, container: c.name }, 'project log stream ended with an error');
      } finally {
        following.delete(c.id);
        buffer.close(c.id);
      }
    };
    const join = async () => {
      for (const c of await listComposeContainers(this.ctx.docker, name)) {
        known.set(c.id, c);
        if (c.state === 'running') void follow(c);
      }
    };
    const off = this.events.subscribe((e) => {
      if (e.kind === 'resync' || (e.action === 'start' && !following.has(e.id)))
        join().catch((err: unknown) => this.ctx.log.debug({ err }, 'project log join failed'));
    });
    const untilMs = range.untilNanos === undefined ? null : Number(range.untilNanos / 1_000_000n) - Date.now();
    const endTimer =
      untilMs === null
        ? undefined
        : setTimeout(() => sse.end({ reason: 'until', detail: 'The requested time range is complete.' }), untilMs);
    try {
      await this.events.whenConnected();
      await join();
      while (!sse.closed) {
        const ready = buffer.release();
        if (ready.length && !sender.push(ready)) break;
        const wake = room as (() => void) | null;
        room = null;
        wake?.();
        // Held lines are looked at again shortly; with none, the next arrival (or the client leaving) wakes the loop.
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            sse.signal.removeEventListener('abort', done);
            resolve();
          };
          const timer = buffer.size ? setTimeout(done, REORDER_WINDOW_MS / 3) : undefined;
          if (!buffer.size) arrived = done;
          sse.signal.addEventListener('abort', done);
        });
      }
    } finally {
      clearTimeout(endTimer);
      off();
    }
  }

  /** One container's lines of the range (not following), tagged. */
  private async backlog(
    c: LabelledContainer,
    range: LogRange,
    signal: AbortSignal | undefined,
  ): Promise<AsyncGenerator<TaggedLine>> {
    const info = await this.ctx.docker.inspectContainer(c.id);
    const stream = await openLogStream(this.ctx.docker, c.id, {
      follow: false,
      timestamps: true,
      tail: range.tail,
      ...engineRange(range),
      ...(signal ? { signal } : {}),
    });
    return (async function* () {
      for await (const l of readLogLines(stream, Boolean(info.Config.Tty)))
        yield { ...l, service: c.service, container: c.name };
    })();
  }
}
