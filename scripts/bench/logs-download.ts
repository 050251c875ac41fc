// The log bench's [4]: server memory while a large log downloads (see logs.ts).
import type { Probe } from './server';
import { docker } from './lib';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The container that writes the big log, its size in MiB, and the bench's log line. */
interface BigLog {
  name: string;
  label?: string;
  mib: number;
  log: (msg: string) => void;
}

const BIG_LINE = 8191;
/** How long the download's reader stops half way (server memory must not grow meanwhile). */
const PAUSE_MS = 3000;

/** [4] A container writes DOWNLOAD_MIB of log; resolves once it is all in the engine. */
export async function writeBigLog({
  name: BIG,
  label: LABEL = 'berth.bench=1',
  mib: DOWNLOAD_MIB,
  log,
}: BigLog): Promise<void> {
  const lines = Math.ceil((DOWNLOAD_MIB * 1048576) / (BIG_LINE + 1));
  const started = Date.now();
  await docker([
    'run',
    '-d',
    '--name',
    BIG,
    '--label',
    LABEL,
    process.env.BERTH_TEST_IMAGE!,
    'sh',
    '-c',
    `yes "$(head -c ${BIG_LINE} /dev/zero | tr '\\0' x)" | head -n ${lines}; echo written; sleep 3600`,
  ]);
  const deadline = Date.now() + 600_000;
  while ((await docker(['logs', '--tail', '1', BIG])).trim() !== 'written') {
    if (Date.now() > deadline) throw new Error('the big log was not written within 10 minutes');
    await sleep(500);
  }
  log(
    `the big log (${DOWNLOAD_MIB} MiB in ${lines} lines) was written in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** [4] The server's RSS is sampled while the big log downloads (read as fast as this process takes it). */
export async function downloadMemory({
  url,
  cookie,
  probe,
  name: BIG,
  mib: DOWNLOAD_MIB,
  log,
}: BigLog & { url: string; cookie: string; probe: () => Promise<Probe> }): Promise<void> {
  const idle = await probe();
  const res = await fetch(`${url}/api/apps/${BIG}/logs/download`, { headers: { cookie } });
  if (!res.ok || !res.body) throw new Error(`download failed: ${res.status}`);
  let bytes = 0;
  let peak = idle.rss;
  const samples: number[] = [];
  let lastProbe = Date.now();
  const started = Date.now();
  let paused: { before: number; after: number } | null = null;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    if (!paused && bytes > (DOWNLOAD_MIB * 1048576) / 2) {
      // Half way, this reader stops for 3 s: with back-pressure the server stops reading the
      // engine too; without, it would buffer the engine's ~80 MiB/s meanwhile.
      const before = (await probe()).rss;
      await sleep(PAUSE_MS);
      paused = { before, after: (await probe()).rss };
      samples.push(paused.after);
      peak = Math.max(peak, paused.after);
    }
    if (Date.now() - lastProbe > 250) {
      lastProbe = Date.now();
      const rss = (await probe()).rss;
      samples.push(rss);
      peak = Math.max(peak, rss);
    }
  }
  const secs = (Date.now() - started - PAUSE_MS) / 1000;
  const after = await probe();
  const m = (b: number) => Math.round(b / 1048576);
  const quarter = (q: number) => m(samples[Math.min(samples.length - 1, Math.floor((samples.length * q) / 4))] ?? NaN);
  log(
    `[4] download of ${(bytes / 1048576).toFixed(0)} MiB in ${secs.toFixed(1)} s (${(bytes / 1048576 / secs).toFixed(0)} MiB/s): server RSS ${m(idle.rss)} MiB before, peak ${m(peak)} MiB during, ${m(after.rss)} MiB after; at each quarter ${[1, 2, 3, 4].map(quarter).join(' / ')} MiB; the reader paused ${PAUSE_MS / 1000} s half way: ${m(paused?.before ?? NaN)} → ${m(paused?.after ?? NaN)} MiB`,
  );
}
