import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResult, AgentEnrolment, App, DeployResult, Environment } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { testEngine } from './helpers/engine';
import { cookieHeader, SseReader, until } from './apps-fixtures';
import { uniqueName } from './images-fixtures';
import { Term } from './terminal-fixtures';

/**
 * Agent environments, all real on loopback: Berth on 127.0.0.1, an agent process (`berth agent`
 * from the sources) dialling it and serving the harness's second engine (the remote dockerd, its
 * own bridge) through that engine's unix socket, as it would the engine beside it behind a NAT.
 */
const env = process.env;
const ENGINE = env.BERTH_TEST_REMOTE_SOCKET;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The docker CLI straight at the agent's engine (setup, checks and cleanup only). */
function engineCli(args: string[]): string {
  const res = spawnSync(env.BERTH_TEST_DOCKER_CLI || 'docker', ['--host', ENGINE!, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return res.stdout ?? '';
}

interface Agent {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startAgent(berth: string, stateDir: string, token?: string, engine = ENGINE): Agent {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/src/agent/agent-main.ts'], {
    cwd: ROOT,
    env: {
      PATH: env.PATH,
      BERTH_URL: berth,
      BERTH_AGENT_STATE: stateDir,
      DOCKER_HOST: engine,
      LOG_LEVEL: 'info',
      ...(token ? { BERTH_AGENT_TOKEN: token } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, output: () => out, exited };
}

describe.skipIf(!ENGINE)('agent environments', () => {
  let t: TestApp;
  let port = 0;
  let berth = '';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-agent-'));
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-agent-state-'));
  const agents: Agent[] = [];
  const id = `agent-${uniqueName('a').slice(-8)}`;
  const app = uniqueName('agent-app');
  const project = `berth-t-agent-${uniqueName('p').slice(-8)}`;
  const yaml = `services:\n  web:\n    image: ${testEngine().image}\n    command: ["sleep", "3600"]\n    network_mode: host\n    stop_signal: SIGKILL\n    labels: ["berth.test=1"]\n`;
  const scoped = (rest: string) => `/api/environments/${id}${rest}`;
  let token = '';
  /** Stacks made on the swarm engine, removed at the end whatever happened. */
  const stacks: string[] = [];

  const environment = async () => (await t.client.get<Environment>(`/api/environments/${id}`)).body;
  const waitStatus = (reachable: boolean, what: string, ms = 15_000) =>
    until(async () => (await environment()).status.reachable === reachable, what, ms);
  const agent = (tok?: string, dir = stateDir) => {
    const a = startAgent(berth, dir, tok);
    agents.push(a);
    return a;
  };

  async function startBerth(): Promise<void> {
    t = await createTestApp({ DATA_DIR: dataDir });
    berth = await t.app.listen({ host: '127.0.0.1', port });
    port = Number(new URL(berth).port);
  }

  beforeAll(startBerth);

  afterAll(async () => {
    for (const a of agents) a.proc.kill('SIGKILL');
    engineCli(['rm', '-f', '-v', app]);
    const ids = engineCli(['ps', '-aq', '--filter', `label=com.docker.compose.project=${project}`])
      .split('\n')
      .filter(Boolean);
    if (ids.length) engineCli(['rm', '-f', '-v', ...ids]);
    engineCli(['network', 'rm', `${project}_default`]);
    for (const stack of stacks)
      spawnSync(env.BERTH_TEST_DOCKER_CLI || 'docker', ['--host', env.BERTH_TEST_SWARM_HOST!, 'stack', 'rm', stack]);
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it('adds an agent environment: a one-time token and the commands, red until an agent enrols', async () => {
    const res = await t.client.post<AgentEnrolment>('/api/environments/agents', { id, name: `Agent ${id}` });
    expect(res.status, res.text).toBe(200);
    token = res.body.token;
    expect(token).toMatch(/^berth1\./);
    expect(res.body.docker_run).toContain(`BERTH_AGENT_TOKEN=${token}`);
    // The address the admin's browser used (inject's here).
    expect(res.body.docker_run).toContain('BERTH_URL=http://localhost');
    expect(res.body.compose).toContain(token);
    expect(res.body.environment).toMatchObject({
      id,
      kind: 'agent',
      agent: { enrolled: false, connected: false },
      status: { reachable: false, error: expect.stringMatching(/No agent has enrolled/) },
    });
    // Only its hash is kept.
    const list = await t.client.get<Environment[]>('/api/environments');
    expect(list.text).not.toContain(token.split('.')[1]);
  });

  it('enrols with the token and works through the tunnel: list, deploy, logs, stats, exec', async () => {
    agent(token);
    await waitStatus(true, 'the agent environment to turn green');
    expect((await environment()).agent).toMatchObject({ enrolled: true, connected: true, reason: null });

    const deployed = await t.client.post<DeployResult>(scoped('/apps/deploy'), {
      name: app,
      image: testEngine().image,
      restart_policy: 'none',
      network_mode: 'host',
      command: ['sh', '-c', "trap 'exit 0' TERM; while true; do echo agent-tick; sleep 0.3; done"],
      labels: [{ label: 'berth.test', value: '1' }],
    });
    expect(deployed.status, deployed.text).toBe(200);
    expect(engineCli(['inspect', '--format', '{{.State.Running}}', app]).trim()).toBe('true');
    expect((await t.client.get<App[]>(scoped('/apps/'))).body.map((a) => a.name)).toContain(app);
    expect((await t.client.get<App[]>('/api/apps/')).body.map((a) => a.name)).not.toContain(app);

    const containerId = engineCli(['inspect', '--format', '{{.Id}}', app]).trim();
    const pushed: number[] = [];
    const offStats = t.services.agents.onStats(id, (m) => {
      const row = m.rows.find((r) => r[0] === containerId);
      if (row) pushed.push(row[3]);
    });
    const cookie = cookieHeader(t.client);
    const logs = await SseReader.open(berth, scoped(`/apps/${app}/logs`), cookie);
    const stats = await SseReader.open(berth, scoped(`/apps/${app}/stats`), cookie);
    try {
      await logs.waitFor((r) => r.updates().some((l) => l.includes('agent-tick')), 'a log line');
      await stats.waitFor((r) => r.of('update').length >= 2, 'two stats samples');
    } finally {
      logs.close();
      stats.close();
    }
    // The agent pushed the container's cgroup readings (memory in use > 0) in its one-a-second message.
    offStats();
    expect(pushed.length).toBeGreaterThanOrEqual(1);
    expect(pushed[0]).toBeGreaterThan(0);
    expect(t.services.environments.get(id).hub.source).toBe('cgroup');

    const csrf = t.client.cookies.get('csrf_access_token')!;
    const term = await Term.open(
      `${berth.replace(/^http/, 'ws')}${scoped(`/apps/${app}/exec`)}?cmd=sh&cols=100&rows=30`,
      { cookie, origin: berth },
      ['berth.terminal', `csrf.${csrf}`],
    );
    term.ws.send(JSON.stringify({ type: 'resize', cols: 123, rows: 45 }));
    term.type('stty size; echo done-$((6*7))\n');
    await term.waitFor('45 123');
    await term.waitFor('done-42');
    term.ws.close();

    expect((await t.client.post<ActionResult>(scoped(`/apps/actions/${app}/stop`))).status).toBe(200);
    expect(engineCli(['inspect', '--format', '{{.State.Running}}', app]).trim()).toBe('false');
  });

  it('brings a compose project up and down through the agent', async () => {
    expect((await t.client.post(scoped('/compose/'), { name: project, content: yaml })).status).toBe(200);
    const up = await t.client.post<ActionResult>(scoped(`/compose/${project}/actions/up`));
    expect(up.status, up.text).toBe(200);
    expect(
      engineCli(['ps', '--filter', `label=com.docker.compose.project=${project}`, '--format', '{{.State}}']).trim(),
    ).toBe('running');
    const down = await t.client.post<ActionResult>(scoped(`/compose/${project}/actions/down`));
    expect(down.status, down.text).toBe(200);
    expect(engineCli(['ps', '-a', '--filter', `label=com.docker.compose.project=${project}`, '-q']).trim()).toBe('');
  });

  it('refuses the token a second time, from another agent', async () => {
    const other = agent(token, fs.mkdtempSync(path.join(os.tmpdir(), 'berth-agent-other-')));
    expect(await other.exited).toBe(2);
    expect(other.output()).toMatch(/unknown or was used already/);
    expect((await environment()).status.reachable).toBe(true);
  });

  it('goes red within 10 s when the agent is killed, green again after it restarts, with the events it missed', async () => {
    agents[0]!.proc.kill('SIGKILL');
    const killed = Date.now();
    await waitStatus(false, 'the environment to turn red', 10_000);
    expect(Date.now() - killed).toBeLessThan(10_000);
    expect((await environment()).status.error).toMatch(/The agent disconnected/);
    // A change while the agent is away: the event stream resumes from the last event seen.
    engineCli(['rename', app, `${app}-moved`]);
    engineCli(['rename', `${app}-moved`, app]);
    agent();
    await waitStatus(true, 'the environment to turn green again');
    let names: string[] = [];
    await until(
      async () => {
        const res = await t.client.get<{ name: string }[]>(scoped(`/events?type=container&action=rename`));
        names = res.body.map((e) => e.name);
        return names.includes(`${app}-moved`) && names.includes(app);
      },
      'the renames made while the agent was away',
      10_000,
    );
    expect(names).toHaveLength(2);
  });

  it('reconnects by itself when Berth restarts, and the events of the time Berth was away are kept', async () => {
    await t.close();
    engineCli(['rename', app, `${app}-away`]);
    engineCli(['rename', `${app}-away`, app]);
    await startBerth();
    await waitStatus(true, 'the agent to reconnect to the new Berth', 20_000);
    expect((await t.client.get<App[]>(scoped('/apps/'))).body.map((a) => a.name)).toContain(app);
    let names: string[] = [];
    await until(
      async () => {
        const res = await t.client.get<{ name: string }[]>(scoped(`/events?type=container&action=rename`));
        names = res.body.map((e) => e.name);
        return names.includes(`${app}-away`);
      },
      'the renames made while Berth was away',
      10_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${names.join(', ')}`);
    });
    // Those two, after the two made while the agent was away: none repeated.
    expect(names).toHaveLength(4);
  });

  it('cuts a revoked agent off at once; it stops and cannot come back', async () => {
    const running = agents.at(-1)!;
    const res = await t.client.post<Environment>(`/api/environments/${id}/agent/revoke`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ agent: { enrolled: false, connected: false }, status: { reachable: false } });
    expect((await t.client.get(scoped('/apps/'))).status).toBe(503);
    expect(await running.exited).toBe(2);
    const again = agent();
    expect(await again.exited).toBe(2);
    expect(again.output()).toMatch(/not enrolled, or its identity was revoked/);
  });

  it.skipIf(!env.BERTH_TEST_SWARM_HOST)(
    'deploys and removes a swarm stack through an agent beside a swarm manager',
    async () => {
      const swarmId = `${id}-swarm`;
      const stack = `bta${uniqueName('s').slice(-6)}`;
      stacks.push(stack);
      const made = await t.client.post<AgentEnrolment>('/api/environments/agents', { id: swarmId, name: swarmId });
      agents.push(
        startAgent(
          berth,
          fs.mkdtempSync(path.join(os.tmpdir(), 'berth-agent-swarm-')),
          made.body.token,
          env.BERTH_TEST_SWARM_HOST,
        ),
      );
      const at = (rest: string) => `/api/environments/${swarmId}${rest}`;
      await until(
        async () =>
          (await t.client.get<Environment>(`/api/environments/${swarmId}`)).body.status.swarm_role === 'manager',
        'the swarm agent to connect',
      );
      const content = `version: "3.8"\nservices:\n  web:\n    image: ${testEngine().image}\n    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 600 & wait"]\n`;
      const deployed = await t.client.post<{ output: string }>(at('/swarm/stacks'), { name: stack, content });
      expect(deployed.status, deployed.text).toBe(200);
      expect(deployed.body.output).toContain(`Creating service ${stack}_web`);
      const removed = await t.client.delete(at(`/swarm/stacks/${stack}`));
      expect(removed.status, removed.text).toBe(200);
      await until(
        async () => (await t.client.get(at(`/swarm/stacks/${stack}`))).status === 404,
        'the stack to go',
        30_000,
      );
    },
    120_000,
  );
});
