// Many environments on one Berth, run by `npm run bench` (scripts/bench.sh; BENCH_SKIP_ENVS=1
// skips it). Nothing here asserts a time; every figure is printed beside its target.
//   A private dockerd of its own (scripts/bench/private-engine.ts, its own bridge) with a second,
//   mutual-TLS listener on loopback (certificates made here by openssl), holding BENCH_ENVS_CONTAINERS
//   (200) busybox containers, BENCH_ENVS_RUNNING (50) of them running. Every environment is that
//   one engine, so each sees the same 200 containers and 50 running apps: an agent environment
//   through a real `berth agent` (the agent bundle, one process per environment, enrolled with its
//   token), a TLS environment over tcp:// with the client certificate. Berth is the server bundle
//   with the start script's flags (as `npm start` runs it), history on, no viewer; its own
//   `local` environment points at a socket with no engine, so only the added ones hold apps.
//   [e1] Berth's RSS and CPU with 1, 5 and 10 environments (agent, tls, agent, … by default)
//   [e2] the engine's CPU over its idle (no Berth) for one agent environment and for Berth's own
//        local cgroup source on the same engine, in windows and in pairs of windows with the
//        clients running and frozen
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { AgentEnrolment, Environment } from '@berth/contract';
import { engineCall, engineGet, mib, parallel, runBench } from './lib';
import { enginePct, fmtEngine, pairedWindows, pct, type EnginePct, type Paired } from './engine-cpu';
import { startPrivateEngine, type PrivateEngine } from './private-engine';
import { startAgent, startBerth, type Berth, type Proc } from './envs-procs';

const ENVS = Number(process.env.BENCH_ENVS ?? 10);
const CONTAINERS = Number(process.env.BENCH_ENVS_CONTAINERS ?? 200);
const RUNNING = Number(process.env.BENCH_ENVS_RUNNING ?? 50);
/** The kinds of the environments added, in turn. */
const KINDS = (process.env.BENCH_ENVS_KINDS ?? 'agent,tls').split(',') as Array<'agent' | 'tls'>;
const WINDOW_MS = Number(process.env.BENCH_ENVS_WINDOW_S ?? 20) * 1000;
/** After environments are added: their scopes start, history fills its first buffers. */
const SETTLE_MS = Number(process.env.BENCH_ENVS_SETTLE_S ?? 30) * 1000;
const PAIRS = Number(process.env.BENCH_ENVS_PAIRS ?? 8);
const PAIR_MS = 4000;
const STEPS = [1, 5, 10].filter((n) => n <= ENVS);
if (!STEPS.includes(ENVS)) STEPS.push(ENVS);
const AT_ONCE = 16;
const RUN = `berth-bench-envs-${randomBytes(3).toString('hex')}`;
const LABELS = { 'berth.bench': '1', 'berth.bench.run': RUN };
const root = path.resolve(import.meta.dirname, '../..');

const log = (msg: string) => console.log(`[bench] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

let engine: PrivateEngine | null = null;
const procs: Proc[] = [];
const tmpDirs: string[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** A CA, a server certificate for 127.0.0.1 and a client certificate (EC P-256, as scripts/test-env-remote.sh makes them). */
function makeTls(dir: string): Record<'ca' | 'serverCert' | 'serverKey' | 'cert' | 'key', string> {
  const ssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl(['req', '-x509', ...ec, '-days', '2', '-subj', '/CN=berth-bench CA', '-keyout', 'ca-key.pem', '-out', 'ca.pem']);
  const cert = (name: string, cn: string, ext: string) => {
    fs.writeFileSync(path.join(dir, `${name}.ext`), ext);
    ssl(['req', ...ec, '-subj', `/CN=${cn}`, '-keyout', `${name}-key.pem`, '-out', `${name}.csr`]);
    ssl(
      ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-CAcreateserial'].concat([
        '-days',
        '2',
        '-extfile',
        `${name}.ext`,
        '-out',
        `${name}.pem`,
      ]),
    );
  };
  cert('server', 'localhost', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  cert('client', 'berth-bench-client', 'extendedKeyUsage=clientAuth\n');
  const at = (f: string) => path.join(dir, f);
  return {
    ca: at('ca.pem'),
    serverCert: at('server.pem'),
    serverKey: at('server-key.pem'),
    cert: at('client.pem'),
    key: at('client-key.pem'),
  };
}

/** `n` containers of the test image through the engine API, AT_ONCE at a time; the first `running` started. */
async function makeContainers(image: string, n: number, running: number): Promise<void> {
  const ids: string[] = [];
  await parallel(
    Array.from({ length: n }, (_, i) => i),
    AT_ONCE,
    async (i) => {
      const body = await engineCall('POST', `/containers/create?name=${RUN}-${i}`, {
        Image: image,
        Cmd: ['sleep', '100000'],
        Labels: LABELS,
        HostConfig: { NetworkMode: 'none' },
      });
      ids[i] = (JSON.parse(body) as { Id: string }).Id;
    },
  );
  await parallel(ids.slice(0, running), AT_ONCE, (id) => engineCall('POST', `/containers/${id}/start`));
}

/** The engine's CPU over one window, and what `procs` used in it (% of one core each). */
async function window(eng: PrivateEngine, who: Proc[] = []): Promise<{ engine: EnginePct; procs: number[] }> {
  const c0 = eng.cpu();
  const p0 = who.map((p) => p.cpu());
  const t0 = Date.now();
  await sleep(WINDOW_MS);
  const ms = Date.now() - t0;
  return { engine: enginePct(c0, eng.cpu(), ms), procs: who.map((p, i) => pct(p.cpu() - p0[i]!, ms)) };
}

/** Freezes and resumes several processes together (pairedWindows signals one "child"). */
const together = (ps: Proc[]) =>
  ({ kill: (sig: NodeJS.Signals) => ps.every((p) => p.child.kill(sig)) }) as unknown as ChildProcess;

async function waitReachable(berth: Berth, id: string): Promise<void> {
  // Generous: on a loaded machine (load average 100 on 2 CPUs) an agent took over 60 s.
  const deadline = Date.now() + 180_000;
  for (;;) {
    const e = await berth.call<Environment>('GET', `/api/environments/${id}`);
    if (e.status.reachable) return;
    if (Date.now() > deadline) throw new Error(`environment ${id} did not turn green within 180 s: ${e.status.error}`);
    await sleep(500);
  }
}

async function addEnvironment(
  berth: Berth,
  kind: 'agent' | 'tls',
  n: number,
  tls: ReturnType<typeof makeTls>,
  tlsPort: number,
): Promise<{ id: string; agent: Proc | null }> {
  const id = `bench-${kind}-${n}`;
  let agent: Proc | null = null;
  if (kind === 'agent') {
    const res = await berth.call<AgentEnrolment>('POST', '/api/environments/agents', { id, name: id });
    agent = startAgent(berth.url, engine!.host, res.token);
    procs.push(agent);
  } else {
    const read = (f: string) => fs.readFileSync(f, 'utf8');
    await berth.call('POST', '/api/environments', {
      id,
      name: id,
      url: `tcp://127.0.0.1:${tlsPort}`,
      tls: { ca: read(tls.ca), cert: read(tls.cert), key: read(tls.key) },
    });
  }
  await waitReachable(berth, id);
  return { id, agent };
}

interface Step {
  envs: number;
  kinds: string;
  rss: number;
  berthCpu: number;
  agentsCpu: number;
  engine: EnginePct;
  load: string;
}

async function main(): Promise<void> {
  const started = Date.now();
  const image = process.env.BERTH_TEST_IMAGE;
  if (!image) throw new Error('BERTH_TEST_IMAGE is not set; run through `npm run bench`');
  log('building the server and agent bundles (node scripts/build-server.mjs)');
  execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { cwd: root, stdio: 'inherit' });

  const tlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-tls-'));
  tmpDirs.push(tlsDir);
  const tls = makeTls(tlsDir);
  const tlsPort = await freePort();
  log(`private dockerd with a TLS listener on 127.0.0.1:${tlsPort}; ${CONTAINERS} containers, ${RUNNING} running`);
  engine = await startPrivateEngine(RUN, [
    '--host',
    `tcp://127.0.0.1:${tlsPort}`,
    '--tlsverify',
    '--tlscacert',
    tls.ca,
    '--tlscert',
    tls.serverCert,
    '--tlskey',
    tls.serverKey,
  ]);
  const eng = engine;
  // The engine API calls of lib.ts (engineCall, engineGet) go to DOCKER_HOST: this engine from here on.
  process.env.DOCKER_HOST = eng.host;
  await eng.docker(['pull', '-q', image]);
  const t0 = Date.now();
  await makeContainers(image, CONTAINERS, RUNNING);
  log(`made ${CONTAINERS} containers, started ${RUNNING}, in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await sleep(5000);

  log(`baseline: the engine with no client, ${WINDOW_MS / 1000} s`);
  const before = (await window(eng)).engine;

  // Berth with environments added one kind after the other; `local` has no engine.
  const noEngine = `unix://${path.join(tlsDir, 'no-engine.sock')}`;
  const berth = await startBerth(noEngine, await freePort());
  procs.push(berth);
  const agents: Proc[] = [];
  const ids: string[] = [];
  const steps: Step[] = [];
  let agentCost: { plain: EnginePct; paired: Paired; agentCpu: number } | null = null;
  for (const target of STEPS) {
    while (ids.length < target) {
      const kind = KINDS[ids.length % KINDS.length]!;
      const added = await addEnvironment(berth, kind, ids.length + 1, tls, tlsPort);
      ids.push(added.id);
      if (added.agent) agents.push(added.agent);
    }
    log(`${target} environment(s) green; settling ${SETTLE_MS / 1000} s`);
    await sleep(SETTLE_MS);
    const w = await window(eng, [berth, ...agents]);
    steps.push({
      envs: target,
      kinds: ids.map((id) => id.split('-')[1]).join(','),
      rss: berth.rss(),
      berthCpu: w.procs[0]!,
      agentsCpu: w.procs.slice(1).reduce((a, b) => a + b, 0),
      engine: w.engine,
      load: load(),
    });
    if (target === 1 && agents.length === 1) {
      log(
        `[e2] one agent environment: ${PAIRS} pairs of ${PAIR_MS / 1000} s windows, Berth and agent running vs frozen`,
      );
      const paired = await pairedWindows(together([berth, agents[0]!]), eng, PAIRS, PAIR_MS);
      agentCost = { plain: w.engine, paired, agentCpu: w.procs[1]! };
    }
  }
  // Every environment lists the engine's containers.
  const listed = await Promise.all(
    ids.map(async (id) => (await berth.call<unknown[]>('GET', `/api/environments/${id}/apps/`)).length),
  );
  for (const p of [...agents, berth]) await p.stop();

  log(`[e2] Berth with the engine as its local environment (cgroup source), settling ${SETTLE_MS / 1000} s`);
  const local = await startBerth(eng.host, await freePort());
  procs.push(local);
  await sleep(SETTLE_MS);
  const lw = await window(eng, [local]);
  const localRss = local.rss();
  const localPaired = await pairedWindows(together([local]), eng, PAIRS, PAIR_MS);
  await local.stop();
  await sleep(3000);
  log(`baseline again, ${WINDOW_MS / 1000} s`);
  const after = (await window(eng)).engine;
  const baseline = (before.total + after.total) / 2;
  const engineContainers = (JSON.parse(await engineGet('/containers/json?all=1')) as unknown[]).length;

  console.log('');
  console.log(
    `Berth environments — ${os.cpus().length} CPUs, load average ${load()} (other work on this machine skews CPU figures), ${new Date().toISOString()}`,
  );
  console.log(
    `[e1] one private dockerd (${engineContainers} containers, ${RUNNING} running) behind every environment: each of the ${ids.length} ` +
      `lists ${Math.min(...listed)}–${Math.max(...listed)} apps and records history of ${RUNNING} running; no viewer; CPU in % of one core over ${WINDOW_MS / 1000} s windows`,
  );
  const first = steps[0]!;
  for (const s of steps) {
    const extra =
      s.envs > first.envs
        ? `, +${mib((s.rss - first.rss) / (s.envs - first.envs))} per environment past ${first.envs}`
        : '';
    console.log(
      `[e1] ${String(s.envs).padStart(2)} environment(s) (${s.kinds}): Berth RSS ${mib(s.rss)}${extra}; Berth CPU ${s.berthCpu.toFixed(2)} %; ` +
        `agents ${s.agentsCpu.toFixed(2)} % together; engine ${fmtEngine(s.engine)} (load ${s.load})`,
    );
  }
  const last = steps.at(-1)!;
  const perEnv = steps.length > 1 ? (last.rss - first.rss) / (last.envs - first.envs) / 1024 / 1024 : 0;
  console.log(
    `[e1] targets at ${last.envs}: RSS ≤ 120 MiB: ${last.rss <= 120 * 1024 * 1024 ? 'OK' : 'OVER'}; ≤ 3 MiB per extra environment (${perEnv.toFixed(1)}): ` +
      `${perEnv <= 3 ? 'OK' : 'OVER'}; Berth CPU ≤ 5 %: ${last.berthCpu <= 5 ? 'OK' : 'OVER'}`,
  );
  console.log(
    `[e2] engine idle with no client: ${baseline.toFixed(2)} % on average (before ${fmtEngine(before)}, after ${fmtEngine(after)})`,
  );
  const fmtPaired = (p: Paired) =>
    `paired ${PAIRS} × ${PAIR_MS / 1000} s: running ${p.running.total.toFixed(2)} %, frozen ${p.stopped.total.toFixed(2)} % → ${p.mean >= 0 ? '+' : ''}${p.mean.toFixed(2)} ± ${p.stdErr.toFixed(2)}`;
  const localCost = lw.engine.total - baseline;
  console.log(
    `[e2] local cgroup source: engine ${fmtEngine(lw.engine)} → ${localCost >= 0 ? '+' : ''}${localCost.toFixed(2)} over idle; ${fmtPaired(localPaired)}; ` +
      `Berth CPU ${lw.procs[0]!.toFixed(2)} %, RSS ${mib(localRss)}`,
  );
  if (agentCost) {
    const cost = agentCost.plain.total - baseline;
    const gap = agentCost.paired.mean - localPaired.mean;
    console.log(
      `[e2] one agent environment: engine ${fmtEngine(agentCost.plain)} → ${cost >= 0 ? '+' : ''}${cost.toFixed(2)} over idle; ${fmtPaired(agentCost.paired)}; ` +
        `the agent's own CPU ${agentCost.agentCpu.toFixed(2)} %`,
    );
    console.log(
      `[e2] agent vs local cgroup source, engine cost (paired means): ${gap >= 0 ? '+' : ''}${gap.toFixed(2)} points (target within 1: ${Math.abs(gap) <= 1 ? 'OK' : 'OVER'})`,
    );
  }
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

async function cleanup(): Promise<void> {
  for (const p of procs.splice(0).reverse()) await p.stop().catch(() => undefined);
  // Stopping the private engine takes its containers, data root and exec root with it.
  await engine?.stop();
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
}

runBench(main, cleanup);
