// What scripts/bench/web.ts measures on: a private dockerd (scripts/bench/private-engine.ts, so
// the thousands of containers never show in the shared test engine's lists or tests), running
// and stopped containers made through its engine API, and environments registered in Berth.
import { engineCall, engineGet, parallel } from './lib';
import { startPrivateEngine, type PrivateEngine } from './private-engine';

const AT_ONCE = 8;
/** The tests' idle app (server/test/helpers/engine.ts IDLE_COMMAND): exits at once on a stop. */
const IDLE = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];

/**
 * A private dockerd with the test image; lib's engine calls (engineCall, engineGet) go to it from
 * now on (they read DOCKER_HOST at each call).
 */
export async function benchEngine(tag: string, image: string): Promise<PrivateEngine> {
  const engine = await startPrivateEngine(tag);
  await engine.docker(['pull', '-q', image], 300_000);
  process.env.DOCKER_HOST = engine.host;
  return engine;
}

/** Containers `${prefix}-${i}` for i in [from, to): created (no network: no interface churn), and started when `run`. */
export async function makeContainers(opts: {
  prefix: string;
  image: string;
  labels: Record<string, string>;
  from: number;
  to: number;
  run: boolean;
}): Promise<void> {
  const ids = Array.from({ length: opts.to - opts.from }, (_, i) => opts.from + i);
  await parallel(ids, AT_ONCE, async (i) => {
    const name = `${opts.prefix}-${i}`;
    await engineCall('POST', `/containers/create?name=${name}`, {
      Image: opts.image,
      Cmd: opts.run ? IDLE : ['true'],
      Labels: opts.labels,
      HostConfig: { NetworkMode: 'none' },
    });
    if (opts.run) await engineCall('POST', `/containers/${name}/start`);
  });
}

/** Removes `${prefix}-${i}` for i in [from, to). */
export async function removeContainers(prefix: string, from: number, to: number): Promise<void> {
  const ids = Array.from({ length: to - from }, (_, i) => from + i);
  await parallel(ids, AT_ONCE * 2, (i) => engineCall('DELETE', `/containers/${prefix}-${i}?force=1`));
}

export async function countContainers(running: boolean): Promise<number> {
  return (JSON.parse(await engineGet(`/containers/json${running ? '' : '?all=1'}`)) as unknown[]).length;
}

/** A state-changing call on Berth as the signed-in browser makes it (cookie and its CSRF token). */
export async function berthCall(url: string, cookie: string, method: string, path: string, body?: unknown) {
  const csrf = /(?:^|; )csrf_access_token=([^;]+)/.exec(cookie)?.[1] ?? '';
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      cookie,
      'x-csrf-token': csrf,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<unknown>;
}

/** `n` more environments on the same engine socket; resolves once Berth lists them all reachable. */
export async function addEnvironments(url: string, cookie: string, n: number, socket: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 1; i <= n; i++) {
    const env = (await berthCall(url, cookie, 'POST', '/api/environments', {
      id: `bench-${i}`,
      name: `Bench ${i}`,
      url: socket,
    })) as { id: string };
    ids.push(env.id);
  }
  const deadline = Date.now() + 60_000;
  for (;;) {
    const list = (await (await fetch(`${url}/api/environments`, { headers: { cookie } })).json()) as {
      id: string;
      status: { reachable: boolean };
    }[];
    if (ids.every((id) => list.find((e) => e.id === id)?.status.reachable)) return ids;
    if (Date.now() > deadline) throw new Error('the bench environments were not all reachable within 60 s');
    await new Promise((r) => setTimeout(r, 1000));
  }
}
