import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, dockerCliAsync, removeContainersNamed, testEngine } from './helpers/engine';
import { uniqueName } from './images-fixtures';
import { EngineLink, until } from './apps-fixtures';

const RUN = uniqueName('lcache');
const SLOT = 'berth.test.list-slot';
const CYCLES = 4;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  removeContainersNamed(RUN);
  await t?.close();
});

/** What the list shows of one test container: "name status", or absent. */
type Shown = string;
const ABSENT = 'absent';

interface Step {
  args: string[];
  /**
   * Run the CLI blocking this process (the server's too): its first read then starts before the
   * server has read anything from its event stream, the race the cache must not lose. The other
   * steps run it alongside the reading loop.
   */
  blocking: boolean;
  /** Each slot's state once the command has returned. */
  after: Map<string, Shown>;
  /** States the engine passes through while the command runs (a removal shows "removing"). */
  passing: Map<string, Shown[]>;
}

/** create, start, stop, rename, start, remove: per cycle, one container (slot) of its own. */
function plan(): Step[] {
  const steps: Step[] = [];
  let state = new Map<string, Shown>();
  const step = (args: string[], slot: string, shown: Shown, passing: Shown[] = []) => {
    state = new Map(state).set(slot, shown);
    steps.push({ args, after: state, passing: new Map([[slot, passing]]), blocking: Number(slot) % 2 === 1 });
  };
  for (let c = 0; c < CYCLES; c++) {
    const slot = String(c);
    const name = `${RUN}-${c}`;
    const renamed = `${name}-renamed`;
    step(
      [
        'create',
        '--name',
        name,
        '--label',
        'berth.test=1',
        '--label',
        `${SLOT}=${slot}`,
        testEngine().image,
        'sleep',
        '300',
      ],
      slot,
      `${name} created`,
    );
    step(['start', name], slot, `${name} running`);
    step(['stop', '--time', '0', name], slot, `${name} exited`);
    step(['rename', name, renamed], slot, `${renamed} exited`);
    step(['start', renamed], slot, `${renamed} running`);
    step(['rm', '--force', renamed], slot, ABSENT, [`${renamed} exited`, `${renamed} removing`, `${renamed} dead`]);
  }
  return steps;
}

const shownBy = (apps: App[]) =>
  new Map(
    apps
      .filter((a) => a.Config.Labels[SLOT] !== undefined && a.name.startsWith(RUN))
      .map((a) => [a.Config.Labels[SLOT]!, `${a.name} ${a.State.Status}`]),
  );

describe('the app list cache', () => {
  it('never lists a state the engine no longer has while the docker CLI changes containers', async () => {
    const cache = t.services.environments.local.apps.listCache!;
    expect(cache).not.toBeNull();
    const steps = plan();
    const slots = [...new Set(steps.flatMap((s) => [...s.after.keys()]))];
    let done = -1;
    let running = -1;
    const list = async () => {
      const res = await t.client.get<App[]>('/api/apps/');
      expect(res.status).toBe(200);
      return res.body;
    };
    /** Checks one read made while commands `from`..`to` had returned and `inFlight` (if ≥ 0) was running. */
    const problems: string[] = [];
    const check = (apps: App[], from: number, to: number, inFlight: number) => {
      const shown = shownBy(apps);
      for (const slot of slots) {
        const got = shown.get(slot) ?? ABSENT;
        const ok = new Set<Shown>();
        for (let k = from; k <= to; k++) {
          ok.add(k < 0 ? ABSENT : (steps[k]!.after.get(slot) ?? ABSENT));
          if (k > from) for (const p of steps[k]!.passing.get(slot) ?? []) ok.add(p);
        }
        if (inFlight >= 0) {
          ok.add(steps[inFlight]!.after.get(slot) ?? ABSENT);
          for (const p of steps[inFlight]!.passing.get(slot) ?? []) ok.add(p);
        }
        if (!ok.has(got))
          problems.push(
            `slot ${slot}: listed "${got}" after \`docker ${steps[to]?.args.slice(0, 2).join(' ') ?? '(none)'}\`; the engine had ${[...ok].join(' | ')}`,
          );
      }
    };

    let reading = true;
    let reads = 0;
    const reader = (async () => {
      while (reading) {
        const from = done;
        const apps = await list();
        check(apps, from, done, running);
        reads++;
      }
    })();

    const servedBefore = { ...cache.served };
    try {
      for (const [i, s] of steps.entries()) {
        running = i;
        if (s.blocking) dockerCli(s.args);
        else await dockerCliAsync(s.args);
        done = i;
        running = -1;
        // The first read after the command returned must show exactly its outcome.
        const shown = shownBy(await list());
        const what = `docker ${s.args.slice(0, 2).join(' ')}`;
        for (const slot of slots)
          expect(`${what}: ${shown.get(slot) ?? ABSENT}`).toBe(`${what}: ${s.after.get(slot) ?? ABSENT}`);
      }
    } finally {
      reading = false;
      await reader;
    }

    expect(problems).toEqual([]);
    // The reads really came from the cache (and each change was listed again).
    expect(cache.served.cache - servedBefore.cache).toBeGreaterThan(steps.length);
    expect(cache.served.engine - servedBefore.engine).toBeGreaterThanOrEqual(steps.length);
    expect(reads).toBeGreaterThan(steps.length);
  });
});

describe('the app list cache across a lost event stream', () => {
  let u: TestApp | undefined;
  let link: EngineLink | undefined;

  afterAll(async () => {
    await u?.close();
    await link?.down();
  });

  it('lists from the engine while the stream is down and shows what changed meanwhile once it is back', async () => {
    link = new EngineLink(
      path.join(os.tmpdir(), `berth-t-lcache-${process.pid}.sock`),
      new URL(testEngine().dockerHost).pathname,
    );
    await link.up();
    u = await createTestApp({ DOCKER_HOST: `unix://${link.socketPath}` });
    const { events, apps } = u.services.environments.local;
    const cache = apps.listCache!;
    const name = `${RUN}-gap`;
    const shown = async () => {
      const res = await u!.client.get<App[]>('/api/apps/');
      return res.status === 200
        ? res.body.filter((a) => a.name.startsWith(name)).map((a) => `${a.name} ${a.State.Status}`)
        : [`status ${res.status}`];
    };
    dockerCli(['create', '--name', name, '--label', 'berth.test=1', testEngine().image, 'sleep', '300']);
    expect(await shown()).toEqual([`${name} created`]);
    const served = cache.served.cache;
    expect(await shown()).toEqual([`${name} created`]);
    expect(cache.served.cache).toBe(served + 1);

    await link.down();
    await until(() => !events.isConnected, 'the event stream to drop');
    // Changed behind Berth's back: no event can reach it.
    dockerCli(['rename', name, `${name}-2`]);
    dockerCli(['start', `${name}-2`]);
    expect(await shown()).toEqual(['status 503']);

    await link.up();
    await until(() => events.isConnected, 'the event stream to come back', 30_000);
    expect(await shown()).toEqual([`${name}-2 running`]);
  });
});
