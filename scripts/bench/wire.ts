// Bytes on the wire of one SSE stream, read as a browser asks for it (brotli or gzip accepted), and
// what the dashboard's tick format would send if every app's numbers changed every second.
import http from 'node:http';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { applyStatsTick, StatsTickEncoder, type StatsTick, type TickNumbers } from '@berth/contract';
import { readSseBlocks } from '../../server/test/apps-fixtures';
import { encodeEvent, eventCompressor } from '../../server/src/lib/sse';

/** Counts the bytes received (as sent, maybe compressed) and decoded, each with its arrival time. */
export class WireMeter {
  readonly raw: Array<[number, number]> = [];
  readonly decoded: Array<[number, number]> = [];
  encoding = 'identity';
  /** The tick format: the numbers a client holds after every frame so far (which apps it shows). */
  readonly apps = new Map<string, TickNumbers>();
  frames = 0;
  private req: http.ClientRequest | null = null;

  /** `acceptEncoding` as a browser sends it by default; 'identity' for an uncompressed stream. */
  static open(url: string, cookie: string, acceptEncoding = 'br, gzip'): Promise<WireMeter> {
    const m = new WireMeter();
    return new Promise((resolve, reject) => {
      m.req = http.get(url, { headers: { cookie, 'accept-encoding': acceptEncoding } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
        m.encoding = String(res.headers['content-encoding'] ?? 'identity');
        res.on('data', (b: Buffer) => m.raw.push([Date.now(), b.length]));
        const decoder =
          m.encoding === 'br' ? zlib.createBrotliDecompress() : m.encoding === 'gzip' ? zlib.createGunzip() : null;
        const body = decoder ? res.pipe(decoder) : res;
        body.on('data', (b: Buffer) => m.decoded.push([Date.now(), b.length]));
        decoder?.on('error', () => undefined);
        if (url.includes('format=tick'))
          void readSseBlocks(Readable.toWeb(body) as ReadableStream<Uint8Array>, (b) => {
            if (b.event !== 'tick') return;
            m.frames++;
            applyStatsTick(m.apps, JSON.parse(b.data) as StatsTick);
          }).catch(() => undefined);
        resolve(m);
      });
      m.req.on('error', reject);
    });
  }

  /** Bytes per second received in [t0, t1): as sent and decoded. */
  rate(t0: number, t1: number): { raw: number; decoded: number } {
    const sum = (xs: Array<[number, number]>) => xs.filter(([t]) => t >= t0 && t < t1).reduce((a, [, n]) => a + n, 0);
    const s = (t1 - t0) / 1000;
    return { raw: sum(this.raw) / s, decoded: sum(this.decoded) / s };
  }

  close(): void {
    this.req?.destroy();
  }
}

/** Bytes each event takes once compressed and flushed, the way the server streams it. */
async function compressedBytes(encoding: 'br' | 'gzip', events: string[]): Promise<number> {
  const z = eventCompressor(encoding);
  let total = 0;
  z.on('data', (b: Buffer) => (total += b.length));
  for (const e of events) await new Promise<void>((resolve) => z.write(e, () => resolve()));
  z.end();
  await new Promise((r) => z.on('end', r));
  return total;
}

/**
 * The tick format's worst case, computed without a server: `apps` apps (bench-like names) whose CPU
 * and memory all change every second (a random walk), `seconds` ticks; bytes per second raw, gzip
 * and brotli, with the server's encoder and compressors.
 */
export async function worstCaseTicks(
  apps: number,
  seconds = 30,
): Promise<{ raw: number; gzip: number; br: number; gzipCpu: number; brCpu: number }> {
  const enc = new StatsTickEncoder();
  const names = Array.from({ length: apps }, (_, i) => `berth-bench-5f3a9c-s${i}`);
  const cpu = names.map(() => Math.random() * 50);
  const mem = names.map(() => (20 + Math.random() * 200) * 1024 * 1024);
  const events: string[] = [];
  for (let s = 0; s <= seconds; s++) {
    names.forEach((name, i) => {
      cpu[i] = Math.max(0, cpu[i]! + (Math.random() - 0.5) * 6);
      mem[i] = mem[i]! * (1 + (Math.random() - 0.5) * 0.02);
      const total = 2048 * 1024 * 1024;
      enc.stage({
        name,
        time: '',
        cpu_percent: cpu[i]!,
        mem_percent: (mem[i]! / total) * 100,
        mem_current: mem[i]!,
        mem_total: total,
      });
    });
    enc.commit(1_700_000_000_000 + s * 1000);
    events.push(encodeEvent(JSON.stringify(enc.frame(s === 0 ? null : s - 1)), 'tick'));
  }
  // The first (full) frame is left out: a steady second is what the figure is about.
  const steady = events.slice(1);
  const first = events[0]!;
  const perSecond = async (e: 'br' | 'gzip') =>
    ((await compressedBytes(e, events)) - (await compressedBytes(e, [first]))) / steady.length;
  /** CPU to compress one viewer's stream, in % of a core (the whole run over its seconds). */
  const cpuOf = async (e: 'br' | 'gzip') => {
    const before = process.cpuUsage();
    await compressedBytes(e, events);
    const used = process.cpuUsage(before);
    return ((used.user + used.system) / 1e6 / events.length) * 100;
  };
  return {
    raw: steady.reduce((n, e) => n + Buffer.byteLength(e), 0) / steady.length,
    gzip: await perSecond('gzip'),
    br: await perSecond('br'),
    gzipCpu: await cpuOf('gzip'),
    brCpu: await cpuOf('br'),
  };
}
