import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ActionResult,
  ApiError,
  App,
  DeployResult,
  Environment,
  EnvironmentStatus,
  Project,
} from '@berth/contract';
import { createTestApp, type TestApp, type TestResponse } from './helpers/app';
import { testEngine } from './helpers/engine';
import { cookieHeader, listen, SseReader, until } from './apps-fixtures';
import { uniqueName } from './images-fixtures';

/**
 * Environments against the harness's second engine: a dockerd on tcp://127.0.0.1 with mutual TLS,
 * reached over SSH too (sshd with a key-only test user), both real. The harness exports where they
 * are (BERTH_TEST_REMOTE_*, BERTH_TEST_SSH_*) and stops / starts that engine on request.
 */
const env = process.env;
const REMOTE = env.BERTH_TEST_REMOTE_HOST;
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

/** The docker CLI against the remote engine's own unix socket (setup and cleanup only). */
function remoteCli(args: string[]): string {
  const res = spawnSync(env.BERTH_TEST_DOCKER_CLI || 'docker', ['--host', env.BERTH_TEST_REMOTE_SOCKET!, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return res.stdout ?? '';
}

/** The harness's remote-stop / remote-start (the script of the checkout whose harness runs). */
function harness(command: 'remote-stop' | 'remote-start'): void {
  const script = env.BERTH_TEST_ENV_SCRIPT ?? path.join(REPO_ROOT, 'scripts/test-env.sh');
  const res = spawnSync('bash', [script, command], { encoding: 'utf8', timeout: 120_000 });
  if (res.status !== 0) throw new Error(`${command} failed: ${res.stderr || res.stdout}`);
}

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!REMOTE)('environments (TLS and SSH engines)', () => {
  let t: TestApp;
  let base: string;
  const log: string[] = [];
  /** Every response body seen, to look for secrets in at the end. */
  const seen: string[] = [];
  const tls = { ca: '', cert: '', key: '' };
  let sshKey = '';
  const tlsId = `tls-${uniqueName('env').slice(-8)}`;
  const sshId = `ssh-${uniqueName('env').slice(-8)}`;
  const app = uniqueName('env-app');
  const project = `berth-t-env-${uniqueName('p').slice(-8)}`;
  const sshProject = `berth-t-env-${uniqueName('p').slice(-8)}`;
  /** sleep as PID 1 ignores SIGTERM: SIGKILL keeps `down` from waiting out the stop timeout. */
  const yaml = `services:\n  web:\n    image: ${testEngine().image}\n    command: ["sleep", "3600"]\n    network_mode: host\n    stop_signal: SIGKILL\n    labels: ["berth.test=1"]\n`;
  const scoped = (id: string, rest: string) => `/api/environments/${id}${rest}`;

  const keep = <T>(res: TestResponse<T>) => {
    seen.push(res.text);
    return res;
  };
  const get = async <T>(url: string) => keep(await t.client.get<T>(url));
  const post = async <T>(url: string, body?: unknown) => keep(await t.client.post<T>(url, body));
  const environments = async () => (await get<Environment[]>('/api/environments')).body;

  beforeAll(async () => {
    Object.assign(tls, {
      ca: read(env.BERTH_TEST_REMOTE_TLS_DIR!, 'ca.pem'),
      cert: read(env.BERTH_TEST_REMOTE_TLS_DIR!, 'cert.pem'),
      key: read(env.BERTH_TEST_REMOTE_TLS_DIR!, 'key.pem'),
    });
    sshKey = fs.readFileSync(env.BERTH_TEST_SSH_KEY!, 'utf8');
    t = await createTestApp({ LOG_LEVEL: 'debug' }, {}, { logStream: { write: (line) => void log.push(line) } });
    base = await listen(t.app);
  });

  afterAll(async () => {
    for (const name of [app]) remoteCli(['rm', '-f', '-v', name]);
    for (const p of [project, sshProject]) {
      const ids = remoteCli(['ps', '-aq', '--filter', `label=com.docker.compose.project=${p}`])
        .split('\n')
        .filter(Boolean);
      if (ids.length) remoteCli(['rm', '-f', '-v', ...ids]);
      remoteCli(['network', 'rm', `${p}_default`]);
    }
    await t?.close();
  });

  it('refuses bad input with a 400 naming it, before trying anything', async () => {
    const noTls = await post<ApiError>('/api/environments', { name: 'x', url: REMOTE });
    expect(noTls.status).toBe(400);
    expect(noTls.body.detail).toMatch(/needs TLS/);
    const badPem = await post<ApiError>('/api/environments', {
      name: 'x',
      url: REMOTE,
      tls: { ...tls, cert: tls.ca.replace(/[A-Za-z]{20}/, 'AAAAAAAAAAAAAAAAAAAA') },
    });
    expect(badPem.status).toBe(400);
    expect(badPem.body.fields?.[0]?.field).toBe('tls.cert');
  });

  it('gives each connection failure its own 502 detail and stores nothing', async () => {
    const wrong = env.BERTH_TEST_WRONG_TLS_DIR!;
    const cases: [string, object, RegExp][] = [
      ['refused port', { url: `tcp://127.0.0.1:${await closedPort()}`, tls }, /connection refused/],
      [
        'wrong CA',
        { url: REMOTE, tls: { ...tls, ca: read(wrong, 'ca.pem') } },
        /TLS verification of the engine's certificate failed/,
      ],
      [
        'wrong client cert',
        { url: REMOTE, tls: { ...tls, cert: read(wrong, 'cert.pem'), key: read(wrong, 'key.pem') } },
        /refused the client certificate/,
      ],
      [
        'wrong SSH key',
        {
          url: `ssh://${env.BERTH_TEST_SSH_USER}@127.0.0.1:${env.BERTH_TEST_SSH_PORT}`,
          ssh: { private_key: fs.readFileSync(env.BERTH_TEST_SSH_WRONG_KEY!, 'utf8') },
        },
        /SSH authentication failed/,
      ],
    ];
    for (const [what, body, detail] of cases) {
      const res = await post<ApiError>('/api/environments', { name: `bad ${what}`, ...body });
      expect(res.status, `${what}: ${res.text}`).toBe(502);
      expect(res.body.code).toBe('environment_unreachable');
      expect(res.body.detail, what).toMatch(detail);
      expect(res.body.detail).toMatch(/Nothing was saved/);
    }
    expect((await environments()).map((e) => e.id)).toEqual(['local']);
  });

  it('adds the TLS engine, shows its status and never its key', async () => {
    const res = await post<Environment>('/api/environments', { id: tlsId, name: `TLS ${tlsId}`, url: REMOTE, tls });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: tlsId,
      kind: 'tcp',
      tls: true,
      ssh: null,
      status: { reachable: true, swarm_role: 'none', error: null },
    });
    expect(res.body.status.version).toMatch(/^\d+\./);
    expect(res.body.status.containers).toEqual({ running: expect.any(Number), stopped: expect.any(Number) });
    const list = await environments();
    expect(list.map((e) => e.id)).toEqual(['local', tlsId]);
    expect(list[0]).toMatchObject({ id: 'local', status: { reachable: true } });
  });

  it('deploys, lists, stops, starts, streams logs and stats of an app on the TLS engine', async () => {
    const deployed = await post<DeployResult & ApiError>(scoped(tlsId, '/apps/deploy'), {
      name: app,
      image: testEngine().image,
      restart_policy: 'none',
      network_mode: 'host',
      // Ends on SIGTERM at once (a plain loop would wait out the stop timeout).
      command: ['sh', '-c', "trap 'exit 0' TERM; while true; do echo env-tick; sleep 0.3; done"],
      labels: [{ label: 'berth.test', value: '1' }],
    });
    expect(deployed.status, deployed.text).toBe(200);
    expect(remoteCli(['inspect', '--format', '{{.State.Running}}', app]).trim()).toBe('true');
    const apps = await get<App[]>(scoped(tlsId, '/apps/'));
    expect(apps.body.map((a) => a.name)).toContain(app);
    expect((await get<App[]>('/api/apps/')).body.map((a) => a.name)).not.toContain(app);

    const cookie = cookieHeader(t.client);
    const logs = await SseReader.open(base, scoped(tlsId, `/apps/${app}/logs`), cookie);
    const stats = await SseReader.open(base, scoped(tlsId, `/apps/${app}/stats`), cookie);
    try {
      await logs.waitFor((r) => r.updates().some((l) => l.includes('env-tick')), 'a log line');
      await stats.waitFor((r) => r.of('update').length >= 1, 'a stats sample');
    } finally {
      logs.close();
      stats.close();
    }

    expect((await post<ActionResult>(scoped(tlsId, `/apps/actions/${app}/stop`))).status).toBe(200);
    expect(remoteCli(['inspect', '--format', '{{.State.Running}}', app]).trim()).toBe('false');
    expect((await post<ActionResult>(scoped(tlsId, `/apps/actions/${app}/start`))).status).toBe(200);
    expect(remoteCli(['inspect', '--format', '{{.State.Running}}', app]).trim()).toBe('true');
  });

  it('brings a compose project up and down on the TLS engine, in its own folder', async () => {
    expect((await post(scoped(tlsId, '/compose/'), { name: project, content: yaml })).status).toBe(200);
    expect(fs.existsSync(path.join(t.ctx.config.composeDir, '.environments', tlsId, project))).toBe(true);
    expect((await get<Project[]>('/api/compose/')).body.map((p) => p.name)).not.toContain(project);
    const up = await post<ActionResult>(scoped(tlsId, `/compose/${project}/actions/up`));
    expect(up.status, up.text).toBe(200);
    expect(
      remoteCli(['ps', '--filter', `label=com.docker.compose.project=${project}`, '--format', '{{.State}}']).trim(),
    ).toBe('running');
    const down = await post<ActionResult>(scoped(tlsId, `/compose/${project}/actions/down`));
    expect(down.status, down.text).toBe(200);
    expect(remoteCli(['ps', '-a', '--filter', `label=com.docker.compose.project=${project}`, '-q']).trim()).toBe('');
  });

  it('adds the same engine over SSH (host key kept from the first connection) and works there', async () => {
    const res = await post<Environment>('/api/environments', {
      id: sshId,
      name: `SSH ${sshId}`,
      url: `ssh://${env.BERTH_TEST_SSH_USER}@127.0.0.1:${env.BERTH_TEST_SSH_PORT}`,
      ssh: { private_key: sshKey },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'ssh',
      ssh: { user: env.BERTH_TEST_SSH_USER, passphrase: false },
      status: { reachable: true },
    });
    expect(res.body.ssh?.host_key).toBe(env.BERTH_TEST_SSH_HOST_KEY);
    expect((await get<App[]>(scoped(sshId, '/apps/'))).body.map((a) => a.name)).toContain(app);
    expect((await post<ActionResult>(scoped(sshId, `/apps/actions/${app}/restart`))).status).toBe(200);

    expect((await post(scoped(sshId, '/compose/'), { name: sshProject, content: yaml })).status).toBe(200);
    // The compose CLI over ssh:// (its key and known host from the environment's private folder); down is shown on TLS.
    const up = await post<ActionResult>(scoped(sshId, `/compose/${sshProject}/actions/up`));
    expect(up.status, up.text).toBe(200);
    expect(
      remoteCli(['ps', '--filter', `label=com.docker.compose.project=${sshProject}`, '--format', '{{.State}}']).trim(),
    ).toBe('running');
    // Its containers' labels name a compose file on this machine; for the TLS environment (another machine, as far
    // as Berth knows) that is no external project to read.
    expect((await get<Project[]>(scoped(tlsId, '/compose/'))).body.map((p) => p.name)).not.toContain(sshProject);
  });

  it('answers 503 for a stopped engine while local keeps working, and recovers by itself', async () => {
    harness('remote-stop');
    try {
      const res = await get<ApiError>(scoped(tlsId, '/apps/'));
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('docker_unavailable');
      expect((await get<App[]>('/api/apps/')).status).toBe(200);
      const status = await post<EnvironmentStatus>(`/api/environments/${tlsId}/test`);
      expect(status.body).toMatchObject({ reachable: false, error: expect.stringMatching(/connection refused/) });
    } finally {
      harness('remote-start');
    }
    // The watcher notices by itself: the list shows the last check, it does not check.
    await until(
      async () => (await environments()).find((e) => e.id === tlsId)?.status.reachable === true,
      'the TLS environment to recover',
      15_000,
    );
    expect((await get<App[]>(scoped(tlsId, '/apps/'))).status).toBe(200);
  });

  it('renames, refuses to remove local, removes the SSH environment', async () => {
    const renamed = await keep(
      await t.client.patch<Environment>(`/api/environments/${tlsId}`, { name: `Renamed ${tlsId}` }),
    );
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe(`Renamed ${tlsId}`);
    const local = await keep(await t.client.delete<ApiError>('/api/environments/local'));
    expect(local.status).toBe(400);
    expect((await keep(await t.client.delete(`/api/environments/${sshId}`))).status).toBe(200);
    expect((await get<ApiError>(scoped(sshId, '/apps/'))).status).toBe(404);
    expect((await environments()).map((e) => e.id)).toEqual(['local', tlsId]);
  });

  it('lists an environment whose keys no longer open (another signing key) as unreachable, saying why', async () => {
    const other = await createTestApp({
      DATA_DIR: t.dataDir,
      SECRET_KEY: 'another-signing-key-of-at-least-32-characters',
    });
    try {
      const list = await other.client.get<Environment[]>('/api/environments');
      expect(list.status, list.text).toBe(200);
      expect(list.body.find((e) => e.id === tlsId)?.status).toMatchObject({
        reachable: false,
        error: expect.stringMatching(/cannot be opened/),
      });
      expect((await other.client.get<ApiError>(scoped(tlsId, '/apps/'))).status).toBe(400);
    } finally {
      await other.app.close();
    }
  });

  it('keeps every secret out of responses, the settings export, the log and the database file', async () => {
    await get('/api/settings/export');
    const secrets = [tls.key, sshKey].map((pem) =>
      pem.split('\n').find((l) => l.length > 40 && !l.startsWith('-----'))!,
    );
    for (const secret of secrets) {
      expect(seen.join('\n')).not.toContain(secret);
      expect(log.join('')).not.toContain(secret);
      for (const file of fs.readdirSync(t.dataDir).filter((f) => f.startsWith('berth.db'))) {
        expect(fs.readFileSync(path.join(t.dataDir, file), 'latin1')).not.toContain(secret);
      }
    }
    expect(log.length).toBeGreaterThan(0);
  });
});
