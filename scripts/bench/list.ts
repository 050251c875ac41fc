// GET /api/apps/ against the engine's own list call (GET /containers/json?all=1), run by
// `npm run bench` (scripts/bench.sh). Two servers side by side: one serving the list from its
// event-kept cache (the default) and one with LIST_CACHE=false (every read lists from the engine).
// At each size (BENCH_LIST_SIZES, default 500,1000,5000 containers on the engine) the three calls
// run interleaved, each on a fresh connection; the medians are printed, with how many reads the
// cache answered itself. Nothing here asserts a time. The engine is a private dockerd of this
// bench's own (scripts/bench/private-engine.ts), so thousands of containers do not weigh on a
// shared one; they are created stopped through its API (many at once) and go with it at the end.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  engineCall,
  engineGet,
  forkBenchServer,
  median,
  parallel,
  runBench,
  serverGet,
  signInCookies,
  timed,
  type BenchServer,
} from './lib';
import { startPrivateEngine, type PrivateEngine } from './private-engine';

const LIST_SIZES = (process.env.BENCH_LIST_SIZES ?? '500,1000,5000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_LIST_ROUNDS ?? 21);
const CREATE_AT_ONCE = 16;
const RUN = `berth-bench-list-${randomBytes(3).toString('hex')}`;
const LABELS = { 'berth.bench': '1', 'berth.test': '1', 'berth.bench.run': RUN };
const ADMIN = { username: 'bench@berth.local', password: randomBytes(12).toString('hex') };

const log = (msg: string) => console.log(`[bench] ${msg}`);
const servers: { server: BenchServer; dataDir: string }[] = [];
let engine: PrivateEngine | null = null;

async function start(env: Record<string, string>): Promise<{ url: string; cookie: string; server: BenchServer }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-'));
  const server = await forkBenchServer({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    DISABLE_AUTH: 'false',
    STATS_HISTORY: 'false',
    ...env,
  });
  servers.push({ server, dataDir });
  return { url: server.url, cookie: await signInCookies(server.url, ADMIN), server };
}

const count = async () => (JSON.parse(await engineGet('/containers/json?all=1')) as unknown[]).length;

/** Stopped containers of the test image, through the engine API, many at once. */
async function create(n: number, from: number): Promise<void> {
  const image = process.env.BERTH_TEST_IMAGE!;
  const ids = Array.from({ length: n }, (_, i) => from + i);
  await parallel(ids, CREATE_AT_ONCE, (i) =>
    engineCall('POST', `/containers/create?name=${RUN}-${i}`, { Image: image, Cmd: ['true'], Labels: LABELS }),
  );
}

async function main(): Promise<void> {
  const image = process.env.BERTH_TEST_IMAGE;
  if (!image) throw new Error('BERTH_TEST_IMAGE is not set; run through `npm run bench`');
  log('private dockerd: starting it');
  engine = await startPrivateEngine(RUN);
  // The engine calls here and the servers forked below (they inherit the environment) use this engine.
  process.env.DOCKER_HOST = engine.host;
  await engine.docker(['pull', '-q', image]);
  log('starting two servers (list cache on, LIST_CACHE=false)');
  const cached = await start({});
  const plain = await start({ LIST_CACHE: 'false' });
  const lines: string[] = [];
  let made = 0;
  for (const size of LIST_SIZES) {
    const missing = size - (await count());
    if (missing > 0) {
      const t0 = performance.now();
      await create(missing, made);
      made += missing;
      log(`created ${missing} stopped containers (to ${size}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      // A burst of more events than the engine keeps (256) within the cache's replay reach
      // (2 s) makes reads list again until it has passed; a user does not create 500 at once.
      await new Promise((r) => setTimeout(r, 3000));
    }
    const berth = (s: { url: string; cookie: string }) => serverGet(s.url, '/api/apps/', s.cookie);
    for (let i = 0; i < 5; i++) await Promise.all([engineGet('/containers/json?all=1'), berth(plain), berth(cached)]);
    const ms = { engine: [] as number[], plain: [] as number[], cached: [] as number[] };
    const served0 = (await cached.server.ask()).listServed;
    let listed = 0;
    for (let i = 0; i < ROUNDS; i++) {
      ms.engine.push(await timed(() => engineGet('/containers/json?all=1')));
      ms.plain.push(await timed(() => berth(plain)));
      let body = '';
      ms.cached.push(await timed(async () => (body = await berth(cached))));
      listed = (JSON.parse(body) as unknown[]).length;
    }
    const served1 = (await cached.server.ask()).listServed;
    const fromCache = served1 && served0 ? served1.cache - served0.cache : 0;
    const fromEngine = served1 && served0 ? served1.engine - served0.engine : 0;
    const engine = median(ms.engine);
    const fmt = (xs: number[]) => `${median(xs).toFixed(1)} ms = ${(median(xs) / engine).toFixed(2)}×`;
    lines.push(
      `[6] ${listed} containers: engine ${engine.toFixed(1)} ms | Berth without cache ${fmt(ms.plain)} | Berth with cache ${fmt(ms.cached)} ` +
        `(${fromCache} of ${fromCache + fromEngine} reads from the cache; target ≤ 0.3×: ${median(ms.cached) / engine <= 0.3 ? 'OK' : 'OVER'})`,
    );
  }
  console.log('');
  console.log(
    `Berth app list — ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${new Date().toISOString()}`,
  );
  console.log(
    `GET /api/apps/ vs GET /containers/json?all=1 (medians of ${ROUNDS} interleaved runs, fresh connection each):`,
  );
  for (const l of lines) console.log(l);
}

async function cleanup(): Promise<void> {
  for (const { server, dataDir } of servers.splice(0)) {
    server.child.send({ type: 'stop' });
    await new Promise((r) => (server.child.exitCode !== null ? r(null) : server.child.once('exit', r)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  // Stopping the private engine takes its containers with it (faster than removing thousands).
  await engine?.stop();
}

runBench(main, cleanup);
