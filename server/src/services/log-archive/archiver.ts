import { Readable } from 'node:stream';
import {
  type LogArchive,
  type LogArchiveList,
  type LogArchiveReason,
  type LogDownloadQuery,
  type LogRangeQuery,
  type LogSearchQuery,
  type LogSearchResult,
} from '@berth/contract';
import type { Uses } from '../../context';
import type { LogArchiveRow } from '../../db/log-archives-repo';
import type { ContainerDetail } from '../../docker/engine';
import type { EngineEvents, EngineObjectEvent } from '../../docker/events';
import { openLogStream, readLogBatches, type LogLine } from '../../docker/logs';
import { bareName, PROJECT_LABEL, SERVICE_LABEL } from '../../docker/names';
import { ConflictError, NotFoundError } from '../../errors';
import type { SseStream } from '../../lib/sse';
import { logFileName, searchLog } from '../logs/app-logs';
import { parseLogRange, sendLogLines, type LogRange } from '../logs/log-range';
import type { RegexPool } from '../logs/log-search';
import { HELPER_LABEL } from '../volumes/helper-container';
import type { HeldLogs } from './held-logs';
import { encodeLines, type LogArchiveStore } from './store';

/** A capture reads the engine's log for at most this long (a removal waits for it). */
const CAPTURE_BUDGET_MS = 15_000;
/** Lines per `lines` event when a kept log is sent. */
const SEND_BATCH = 1000;
/** The temporary names of a replace (services/apps/swap.ts): `<name>-berth-<tag>-<8 hex>`. */
const SWAP_NAME = /-berth-([a-z]+)-[0-9a-f]{8}$/;
/** Compose v1 renames a container it recreates to `<12 hex>_<name>` before removing it. */
const COMPOSE_V1_OLD = /^[0-9a-f]{12}_/;

/** The app a container belongs to, from its name now (a replaced container has a temporary one). */
export function appNameOf(name: string, compose: boolean): string {
  const bare = bareName(name).replace(SWAP_NAME, '');
  return compose ? bare.replace(COMPOSE_V1_OLD, '') : bare;
}

/** Lines of a range: since/until by their times, then the newest `tail`. */
export function inRange(lines: LogLine[], r: LogRange): LogLine[] {
  const picked = lines.filter(
    (l) =>
      l.nanos === null ||
      ((r.sinceNanos === undefined || l.nanos >= r.sinceNanos) &&
        (r.untilNanos === undefined || l.nanos < r.untilNanos)),
  );
  return r.tail === undefined ? picked : picked.slice(Math.max(0, picked.length - r.tail));
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const engineTime = (t: string | undefined) => (t && !t.startsWith('0001-') ? t : null);

/**
 * One environment's kept logs: the last lines of a container are kept when Berth removes it
 * (the engine's beforeRemove hook: app remove, and the old container of every replace — edit,
 * update, auto-update, revision rollback), before a compose down or rm through Berth, and when the
 * engine says it died (`die`: a crash, a stop, a compose recreate or a removal outside Berth,
 * read while the container still exists). A running container removed outside Berth (`docker rm -f`)
 * is gone before the engine tells: on the engine's own host its log file, held open since it
 * started (HeldLogs), gives the lines instead. Then listed per app, read, searched and downloaded.
 */
export class LogArchiver {
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly ctx: Uses<'docker' | 'log'>,
    private readonly environment: string,
    private readonly store: LogArchiveStore,
    private readonly regexPool: RegexPool,
    /** The running containers' log files held open (the local engine only; null elsewhere). */
    private readonly held: HeldLogs | null = null,
  ) {}

  /** Keeps lines on Berth's removals and on the engine's `die`; marks removals. Returns the stop. */
  watch(events: EngineEvents): () => void {
    const held = this.store.limits.lines > 0 ? this.held : null;
    const holdAll = () =>
      void held?.holdRunning().catch((err: unknown) => this.ctx.log.warn({ err }, 'holding the log files failed'));
    holdAll();
    const offRemove = this.ctx.docker.beforeRemove((ref) => this.capture(ref, 'removed'));
    const offResync = events.subscribe((e) => e.kind === 'resync' && holdAll());
    const offEvents = events.subscribeObjects((e) => {
      if (e.type !== 'container') return;
      if (e.action === 'start') void held?.hold(e.id);
      if (e.action === 'die') void this.capture(e.id, 'died', e);
      // Late in a shutdown the database may be closed under it: a lost mark is logged, never unhandled.
      if (e.action === 'destroy')
        void this.destroyed(e).catch((err: unknown) => this.ctx.log.debug({ err }, 'a removal was not marked'));
    });
    return () => {
      offRemove();
      offResync();
      offEvents();
      void held?.close();
    };
  }

  /** Marks a removed container's kept log (once its capture is done), keeping it first if its `die` went unheard. */
  private async destroyed(e: EngineObjectEvent): Promise<void> {
    const dying = this.running.get(e.id);
    if (dying) await dying;
    else if (this.held && (await this.held.heldSince(e.id)) !== null) await this.capture(e.id, 'died', e);
    this.store.repo.markRemoved(this.environment, e.id, Date.now());
    await this.held?.forget(e.id);
  }

  /**
   * Keeps the container's last lines (never throws: a failure is logged, and a removal goes on).
   * Captures of one container run one after the other; a stopped container already kept since
   * it stopped is not read again.
   */
  capture(ref: string, reason: Exclude<LogArchiveReason, 'replaced'>, died?: EngineObjectEvent): Promise<void> {
    if (this.store.limits.lines === 0) return Promise.resolve();
    const before = this.running.get(ref) ?? Promise.resolve();
    const next = before
      .then(() => this.keep(ref, reason, died))
      .catch((err: unknown) => this.ctx.log.warn({ err, container: ref }, 'keeping the log of a container failed'))
      .finally(() => {
        if (this.running.get(ref) === next) this.running.delete(ref);
      });
    this.running.set(ref, next);
    return next;
  }

  /** Keeps the last lines of a compose project's containers (of one service, if given) before the CLI removes them. */
  async captureProject(project: string, service: string | null): Promise<void> {
    const label = [`${PROJECT_LABEL}=${project}`, ...(service ? [`${SERVICE_LABEL}=${service}`] : [])];
    const list = await this.ctx.docker.listContainers({ all: true, filters: { label } }).catch(() => []);
    await Promise.all(list.map((c) => this.capture(c.Id, 'removed')));
  }

  /** Earlier containers of an app: by its name, or by the compose project and service it (or a kept one) has. */
  async list(name: string): Promise<LogArchiveList> {
    const rows = await this.rowsOf(name);
    const ids = rows.map((r) => r.container_id);
    const alive = ids.length
      ? new Set((await this.ctx.docker.listContainers({ all: true, filters: { id: ids } })).map((c) => c.Id))
      : new Set<string>();
    return {
      archives: rows.map((r) => toArchive(r, alive.has(r.container_id))),
      retentionDays: this.store.limits.ageMs / 86_400_000,
    };
  }

  /**
   * A kept log as the live stream sends it (the spec's text lines or json batches), then `end`.
   * Everything that can fail (an unknown log, a bad range) fails here, before the stream opens.
   */
  async open(name: string, id: string, q: LogRangeQuery): Promise<{ send: (sse: SseStream) => Promise<void> }> {
    const range = parseLogRange(q, undefined);
    const lines = inRange(await this.store.lines(await this.row(name, id)), range);
    return {
      send: async (sse) => {
        for (let i = 0; i < lines.length; i += SEND_BATCH)
          if (!(await sendLogLines(sse, lines.slice(i, i + SEND_BATCH), range))) return;
        sse.end({ reason: 'until', detail: 'That is every line Berth kept of this container.' });
      },
    };
  }

  async search(name: string, id: string, q: LogSearchQuery, user: string): Promise<LogSearchResult> {
    const row = await this.row(name, id);
    const lines = await this.store.lines(row);
    return searchLog(this.regexPool, user, q, async (range) => [inRange(lines, range)]);
  }

  async download(name: string, id: string, q: LogDownloadQuery): Promise<{ filename: string; body: Readable }> {
    const row = await this.row(name, id);
    const range = parseLogRange(q, undefined);
    const text = inRange(await this.store.lines(row), range)
      .map((l) => `${range.timestamps && l.ts ? `${l.ts} ` : ''}${l.text}\n`)
      .join('');
    return { filename: logFileName(`${row.name}-${row.container_id.slice(0, 12)}`), body: Readable.from([text]) };
  }

  /**
   * Reads the log first, then looks the container up: when something removes it right after it
   * stopped (`docker stop` then `rm`, a compose down or recreate), the removal holds the container
   * and an inspect waits for it and finds nothing, while the log read has begun (measured: inspect
   * answered 100-200 ms after the die event, after the removal; the read started within 5 ms).
   * What the engine no longer tells, the die event's attributes (name, image, labels, exit code) do.
   */
  private async keep(ref: string, reason: Exclude<LogArchiveReason, 'replaced'>, died?: EngineObjectEvent) {
    const began = Date.now();
    const read = this.readTail(ref);
    let info: ContainerDetail | null = null;
    try {
      info = await this.ctx.docker.inspectContainer(ref).catch((err: unknown) => {
        if (err instanceof NotFoundError) return null;
        throw err;
      });
      const engine = await read;
      const lines = info?.State.Running ? engine : await this.orHeldFile(info?.Id ?? ref, engine);
      await this.put(ref, reason, info, lines, died);
    } finally {
      // Kept (or gone): the file is let go until the container starts again.
      if (!info?.State.Running) await this.held?.release(info?.Id ?? ref, began);
    }
  }
  /**
   * The held file's tail when it has more than the engine gave (the engine had already deleted
   * the container and its log); not for a container Berth kept since it started (its removal
   * through Berth kept the lines before the engine removed it).
   */
  private async orHeldFile(id: string, engine: LogLine[] | null): Promise<LogLine[] | null> {
    const since = this.held ? await this.held.heldSince(id) : null;
    if (since === null || (engine?.length ?? 0) >= this.store.limits.lines) return engine;
    // Kept since it started: by a removal through Berth (while running) or by its stop.
    const prev = this.store.repo.byContainer(this.environment, id);
    if (prev && (prev.finished_at ? Date.parse(prev.finished_at) : prev.captured_at) >= since) return engine;
    // The file's entries carry more bytes than they take kept (2x also covers local's compact frames).
    const file = await this.held!.tail(id, this.store.limits.lines, 2 * this.store.limits.bytes);
    return file && file.length > (engine?.length ?? 0) ? file : engine;
  }
  private async put(
    ref: string,
    reason: Exclude<LogArchiveReason, 'replaced'>,
    info: ContainerDetail | null,
    lines: LogLine[] | null,
    died?: EngineObjectEvent,
  ) {
    if ((!info && !died) || lines === null) return;
    const attrs = died?.attributes ?? {};
    const labels = info?.Config.Labels ?? attrs;
    if (labels[HELPER_LABEL] !== undefined) return;
    const name = info?.Name ?? attrs.name ?? ref;
    const why: LogArchiveReason =
      reason === 'removed' && SWAP_NAME.exec(bareName(name))?.[1] === 'old' ? 'replaced' : reason;
    const running = info?.State.Running ?? false;
    const finished = info ? engineTime(info.State.FinishedAt) : new Date(died!.time).toISOString();
    const prev = this.store.repo.byContainer(this.environment, info?.Id ?? ref);
    if (prev && !running && finished && prev.finished_at === finished && prev.lines >= lines.length) {
      // Nothing was logged since it was kept; a removal only says so.
      if (why !== prev.reason && why !== 'died') this.store.repo.upsert({ ...withoutId(prev), reason: why });
      return;
    }
    const encoded = encodeLines(lines.slice(-this.store.limits.lines), this.store.limits.bytes);
    const project = labels[PROJECT_LABEL] ?? null;
    const exit = info ? info.State.ExitCode : Number(attrs.exitCode);
    await this.store.put(
      {
        environment: this.environment,
        container_id: info?.Id ?? ref,
        name: appNameOf(name, project !== null),
        project,
        service: project ? (labels[SERVICE_LABEL] ?? null) : null,
        image: info?.Config.Image ?? attrs.image ?? '',
        started_at: info ? engineTime(info.State.StartedAt) : null,
        finished_at: running ? null : finished,
        exit_code: running || !Number.isFinite(exit) ? null : exit,
        first_line_at: encoded.kept[0]?.ts ?? null,
        last_line_at: encoded.kept.at(-1)?.ts ?? null,
        reason: why,
        captured_at: Date.now(),
      },
      { text: encoded.text, bytes: encoded.bytes, lines: encoded.kept.length },
    );
  }

  /**
   * The container's last lines; null when the engine had none to give (gone; never throws). The stream's first
   * byte tells its kind, so no inspect is awaited: with timestamps a TTY log starts with a digit,
   * a multiplexed one with its frame's stream number (0-2).
   */
  private async readTail(ref: string): Promise<LogLine[] | null> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), CAPTURE_BUDGET_MS);
    const chunks: Buffer[] = [];
    try {
      const stream = await openLogStream(this.ctx.docker, ref, {
        follow: false,
        timestamps: true,
        tail: this.store.limits.lines,
        signal: abort.signal,
      });
      for await (const chunk of stream) chunks.push(chunk);
    } catch (err) {
      // Cut short (the container went mid-read, or the budget ran out): what was read is kept.
      // Never thrown: it runs beside the inspect, and a container being removed answers 404 or 409.
      if (chunks.length === 0) {
        if (!(err instanceof NotFoundError || err instanceof ConflictError || abort.signal.aborted))
          this.ctx.log.warn({ err, container: ref }, 'reading the log of a container to keep failed');
        return null;
      }
    } finally {
      clearTimeout(timer);
    }
    const lines: LogLine[] = [];
    const tty = chunks.length > 0 && chunks[0]![0]! > 2;
    for await (const batch of readLogBatches(Readable.from(chunks), tty)) lines.push(...batch);
    return lines;
  }

  private async rowsOf(name: string): Promise<LogArchiveRow[]> {
    const own = this.store.repo.ofApp(this.environment, name, null);
    const kept = own.find((r) => r.project && r.service);
    let compose = kept ? { project: kept.project!, service: kept.service! } : null;
    if (!compose) {
      const labels = (await this.ctx.docker.inspectContainer(name).catch(() => null))?.Config.Labels ?? {};
      const [project, service] = [labels[PROJECT_LABEL], labels[SERVICE_LABEL]];
      if (project && service) compose = { project, service };
    }
    return compose ? this.store.repo.ofApp(this.environment, name, compose) : own;
  }

  /** A kept log of this app (404 when the number is not one of the app's). */
  private async row(name: string, id: string): Promise<LogArchiveRow> {
    const row = (await this.rowsOf(name)).find((r) => r.id === Number(id));
    if (!row) throw new NotFoundError('kept log', `${id} of ${name}`);
    return row;
  }
}

function withoutId(r: LogArchiveRow) {
  const { id: _id, removed_at: _removed, ...rest } = r;
  return rest;
}

function toArchive(r: LogArchiveRow, exists: boolean): LogArchive {
  return {
    id: r.id,
    name: r.name,
    containerId: r.container_id,
    project: r.project,
    service: r.service,
    image: r.image,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    exitCode: r.exit_code,
    firstLineAt: r.first_line_at,
    lastLineAt: r.last_line_at,
    lines: r.lines,
    bytes: r.bytes,
    storedBytes: r.stored_bytes,
    reason: r.reason,
    capturedAt: iso(r.captured_at)!,
    removedAt: iso(r.removed_at),
    exists,
  };
}
