import type { LogEntry } from '@berth/contract';
import type { LogLine } from '../../docker/logs';

/** A line of one container of a project, tagged with where it came from. */
export interface TaggedLine extends LogLine {
  service: string;
  container: string;
}

export const tagged = (l: TaggedLine): LogEntry => ({
  line: l.text,
  stream: l.stream === 2 ? 'stderr' : 'stdout',
  ...(l.ts ? { ts: l.ts } : {}),
  service: l.service,
  container: l.container,
});

const nanosOf = (l: LogLine) => l.nanos ?? 0n;

/**
 * Merges logs that are each in time order into one in time order (a k-way merge): one line of
 * each source is held at a time, so memory stays flat however long the logs are.
 */
export async function* mergeByTime<T extends LogLine>(sources: AsyncIterator<T>[]): AsyncGenerator<T> {
  const heads: { it: AsyncIterator<T>; line: T }[] = [];
  try {
    for (const it of sources) {
      const r = await it.next();
      if (!r.done) heads.push({ it, line: r.value });
    }
    while (heads.length) {
      let min = 0;
      for (let i = 1; i < heads.length; i++) if (nanosOf(heads[i]!.line) < nanosOf(heads[min]!.line)) min = i;
      const head = heads[min]!;
      yield head.line;
      const r = await head.it.next();
      if (r.done) heads.splice(min, 1);
      else head.line = r.value;
    }
  } finally {
    await Promise.all(sources.map((it) => it.return?.()));
  }
}

/**
 * Puts live lines of several sources back in time order: a line is released once every source
 * that is still open has sent a line at least as new, or once it has waited `windowMs` (a quiet
 * source must not hold the others back). Lines later than that window may come out of order.
 */
export class ReorderBuffer<T extends LogLine> {
  private held: { line: T; at: number }[] = [];
  private readonly latest = new Map<string, bigint>();

  constructor(private readonly windowMs: number) {}

  get size(): number {
    return this.held.length;
  }

  /** A source opened: the others wait for it (up to the window). */
  open(source: string): void {
    if (!this.latest.has(source)) this.latest.set(source, -1n);
  }

  /** A source's stream ended: it holds nobody back. */
  close(source: string): void {
    this.latest.delete(source);
  }

  push(source: string, lines: T[], now = Date.now()): void {
    for (const line of lines) this.held.push({ line, at: now });
    const last = lines.findLast((l) => l.nanos !== null)?.nanos;
    if (last != null) this.latest.set(source, last);
  }

  /** The lines that may go out now, in time order. */
  release(now = Date.now()): T[] {
    if (this.held.length === 0) return [];
    this.held.sort((a, b) => (nanosOf(a.line) < nanosOf(b.line) ? -1 : nanosOf(a.line) > nanosOf(b.line) ? 1 : 0));
    let watermark: bigint | null = null;
    for (const v of this.latest.values()) if (watermark === null || v < watermark) watermark = v;
    let n = 0;
    while (n < this.held.length) {
      const h = this.held[n]!;
      if (!(watermark === null || nanosOf(h.line) <= watermark || now - h.at >= this.windowMs)) break;
      n++;
    }
    return this.held.splice(0, n).map((h) => h.line);
  }
}
