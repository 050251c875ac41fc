import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { projectContainers, trackedProjects } from './helpers/compose-projects';

const projects = trackedProjects();
let t: TestApp | undefined;
/** process.env as the test found it: each test that changes it puts it back. */
const savedEnv = { ...process.env };

afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
  Object.assign(process.env, savedEnv);
  projects.cleanup();
});

/** Berth as started in production: its configuration is in its own process environment too. */
async function berthWithEnv(env: Record<string, string>): Promise<TestApp> {
  for (const [k, v] of Object.entries(env)) {
    if (v === '') delete process.env[k];
    else process.env[k] = v;
  }
  t = await createTestApp(env);
  return t;
}

function probeYaml(): string {
  return `services:
  probe:
    image: ${testEngine().image}
    command: ["sleep", "3600"]
    stop_signal: SIGKILL
    environment:
      SEEN_ADMIN_PASSWORD: "\${ADMIN_PASSWORD:-unset}"
      SEEN_SECRET_KEY: "\${SECRET_KEY:-unset}"
      SEEN_PORT: "\${PORT:-unset}"
      SEEN_DATA_DIR: "\${DATA_DIR:-unset}"
    labels:
      berth.test: "1"
`;
}

describe('the compose CLI environment', () => {
  it('is an allow-list with the engine always named (the default socket when DOCKER_HOST is unset)', () => {
    const config = loadConfig({
      PATH: '/usr/bin',
      HOME: '/root',
      DOCKER_CERT_PATH: '/certs',
      ADMIN_PASSWORD: 'a-long-password',
      SECRET_KEY: 'k'.repeat(40),
      PORT: '9000',
      DATA_DIR: '/tmp/x',
    });
    expect(config.cliEnv).toEqual({
      PATH: '/usr/bin',
      HOME: '/root',
      DOCKER_CERT_PATH: '/certs',
      DOCKER_HOST: 'unix:///var/run/docker.sock',
    });
    expect(loadConfig({ DOCKER_HOST: 'tcp://10.0.0.1:2376' }).cliEnv.DOCKER_HOST).toBe('tcp://10.0.0.1:2376');
  });

  it("gives a compose file none of Berth's configuration, and the project's .env wins", async () => {
    const app = await berthWithEnv({
      ADMIN_PASSWORD: 'correct-horse-battery-staple',
      SECRET_KEY: 's'.repeat(48),
      PORT: '18123',
    });
    const name = projects.name('env');
    expect((await app.client.post('/api/compose/', { name, content: probeYaml() })).status).toBe(200);
    fs.writeFileSync(path.join(app.ctx.config.composeDir, name, '.env'), 'PORT=4242\n');
    const res = await app.client.post(`/api/compose/${name}/actions/create`);
    expect(res.status, res.text).toBe(200);
    const [probe] = projectContainers(name);
    const env = JSON.parse(dockerCli(['inspect', '--format', '{{json .Config.Env}}', probe!.name])) as string[];
    expect(env).toEqual(
      expect.arrayContaining([
        'SEEN_ADMIN_PASSWORD=unset',
        'SEEN_SECRET_KEY=unset',
        'SEEN_PORT=4242',
        'SEEN_DATA_DIR=unset',
      ]),
    );
  });

  it('creates a project with its .env in one call, so a file needing a variable saves (issue 39 #32)', async () => {
    const app = await berthWithEnv({});
    const name = projects.name('withenv');
    const content = `services:\n  db:\n    image: ${testEngine().image}\n    environment:\n      PASSWORD: \${PG_PASS:?set PG_PASS}\n    ports:\n      - "127.0.0.1:\${PORT}:80"\n`;
    const dir = path.join(app.ctx.config.composeDir, name);

    const without = await app.client.post<{ detail: string }>('/api/compose/', { name, content });
    expect(without.status).toBe(400);
    expect(fs.existsSync(dir)).toBe(false);
    const bad = await app.client.post<{ detail: string; code: string }>('/api/compose/', {
      name,
      content,
      env: 'PG_PASS=x\u0001\n',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('control characters');
    expect(fs.existsSync(dir)).toBe(false);

    const env = 'PG_PASS=s3cret\nPORT=18080\n';
    const res = await app.client.post<{ warnings: string[]; content: string }>('/api/compose/', { name, content, env });
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toContain('s3cret');
    expect(fs.readFileSync(path.join(dir, '.env'), 'utf8')).toBe(env);
    expect(fs.statSync(path.join(dir, '.env')).mode & 0o777).toBe(0o600);
    const shown = await app.client.get<{ exists: boolean; content: string }>(`/api/compose/${name}/env`);
    expect(shown.body.exists).toBe(true);
    expect(shown.body.content).not.toContain('s3cret');
  });

  // With no engine at the default socket, compose must fail there rather than obey the .env.
  it.skipIf(fs.existsSync('/var/run/docker.sock'))(
    "ignores a project .env's DOCKER_HOST when Berth's is unset",
    async () => {
      const app = await berthWithEnv({ DOCKER_HOST: '' });
      const name = projects.name('redirect');
      expect((await app.client.post('/api/compose/', { name, content: probeYaml() })).status).toBe(200);
      fs.writeFileSync(path.join(app.ctx.config.composeDir, name, '.env'), `DOCKER_HOST=${testEngine().dockerHost}\n`);
      const res = await app.client.post<{ detail: string }>(`/api/compose/${name}/actions/create`);
      expect(res.status, res.text).toBe(400);
      expect(res.body.detail).toMatch(/docker\.sock|connect|Docker/i);
      expect(projectContainers(name)).toEqual([]);
    },
  );
});
