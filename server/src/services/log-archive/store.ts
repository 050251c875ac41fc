import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { LogLine } from '../../docker/logs';
import type { LogArchiveRow, LogArchivesRepo, NewLogArchive } from '../../db/log-archives-repo';
import { writeFileAtomic } from '../../lib/atomic-write';

const DAY_MS = 86_400_000;
/** zstd loads on the first kept log, not at start (see the start-time note in backups/archive-codec.ts). */
const zstd = () => import('zstd-napi');
/** How often kept logs past their age are dropped (each capture also prunes). */
const PRUNE_EVERY_MS = 3_600_000;

export interface LogArchiveLimits {
  /** Last lines kept per container (0: Berth keeps none). */
  lines: number;
  /** At most this many bytes of them (the newest lines win). */
  bytes: number;
  ageMs: number;
  totalBytes: number;
}

/** LOG_ARCHIVE_* as the store takes them. */
export const limitsOf = (c: { lines: number; kb: number; days: number; mb: number }): LogArchiveLimits => ({
  lines: c.lines,
  bytes: c.kb * 1024,
  ageMs: Math.round(c.days * DAY_MS),
  totalBytes: Math.round(c.mb * 1024 * 1024),
});

/**
 * The newest lines that fit in `maxBytes`, as stored: one `stream<TAB>time<TAB>text` line each
 * (a log line holds no newline; its text may hold tabs, the first two split).
 */
export function encodeLines(lines: LogLine[], maxBytes: number): { text: string; kept: LogLine[]; bytes: number } {
  const parts: string[] = [];
  let bytes = 0;
  let from = lines.length;
  while (from > 0) {
    const l = lines[from - 1]!;
    const part = `${l.stream === 2 ? 2 : 1}\t${l.ts ?? ''}\t${l.text}\n`;
    const size = Buffer.byteLength(part);
    if (bytes + size > maxBytes) break;
    parts.push(part);
    bytes += size;
    from--;
  }
  return { text: parts.reverse().join(''), kept: lines.slice(from), bytes };
}

const TS_NANOS = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/;

/** The stored lines back as log lines (with their times in nanoseconds, for ranges). */
export function decodeLines(text: string): LogLine[] {
  const out: LogLine[] = [];
  for (const row of text.split('\n')) {
    if (!row) continue;
    const a = row.indexOf('\t');
    const b = row.indexOf('\t', a + 1);
    const ts = row.slice(a + 1, b) || null;
    const m = ts ? TS_NANOS.exec(ts) : null;
    const nanos = m ? BigInt(Date.parse(`${m[1]}Z`)) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0')) : null;
    out.push({ stream: row[0] === '2' ? 2 : 1, ts, nanos, text: row.slice(b + 1) });
  }
  return out;
}

/**
 * Where kept logs live: their rows in berth.db (log_archives) and their lines zstd-compressed in
 * DATA_DIR/log-archive/<id>.zst. Shared by every environment; pruned by age and total size.
 */
export class LogArchiveStore {
  readonly dir: string;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly repo: LogArchivesRepo,
    dataDir: string,
    readonly limits: LogArchiveLimits,
    private readonly log: FastifyBaseLogger,
  ) {
    this.dir = path.join(dataDir, 'log-archive');
  }

  /** Prunes now and every hour; drops files no row names (a crash between file and row). */
  async start(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const known = new Set(this.repo.sizes().map((r) => `${r.id}.zst`));
    for (const f of await fs.readdir(this.dir)) if (!known.has(f)) await fs.rm(path.join(this.dir, f), { force: true });
    await this.prune();
    this.timer = setInterval(() => void this.prune().catch((err: unknown) => this.failed(err)), PRUNE_EVERY_MS);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Keeps `lines` (already cut to the limits) for the row's container, replacing what was kept of it. */
  async put(
    row: Omit<NewLogArchive, 'stored_bytes' | 'bytes' | 'lines'>,
    encoded: { text: string; bytes: number; lines: number },
  ) {
    const body = (await zstd()).compress(Buffer.from(encoded.text), { compressionLevel: 3 });
    const id = this.repo.upsert({ ...row, lines: encoded.lines, bytes: encoded.bytes, stored_bytes: body.length });
    try {
      await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(this.file(id), body, { mode: 0o600 });
    } catch (err) {
      this.repo.delete([id]);
      throw err;
    }
    await this.prune();
    return id;
  }

  async lines(row: LogArchiveRow): Promise<LogLine[]> {
    return decodeLines((await zstd()).decompress(await fs.readFile(this.file(row.id))).toString('utf8'));
  }

  /** Drops kept logs older than the age limit, then the oldest until the rest fit the total size; returns how many went. */
  async prune(now = Date.now()): Promise<number> {
    const rows = this.repo.sizes();
    let total = rows.reduce((sum, r) => sum + r.stored_bytes, 0);
    const gone: number[] = [];
    for (const r of rows) {
      if (r.captured_at >= now - this.limits.ageMs && total <= this.limits.totalBytes) break;
      gone.push(r.id);
      total -= r.stored_bytes;
    }
    if (gone.length === 0) return 0;
    this.repo.delete(gone);
    for (const id of gone) await fs.rm(this.file(id), { force: true });
    return gone.length;
  }

  private file(id: number): string {
    return path.join(this.dir, `${id}.zst`);
  }

  private failed(err: unknown): void {
    this.log.warn({ err }, 'pruning kept container logs failed');
  }
}
