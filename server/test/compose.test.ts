import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResult, Project, ProjectDetail, ProjectPlan } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli as dockerCliOk, testEngine, tryDockerCli } from './helpers/engine';
import { projectContainers, trackedProjects, twoServiceYaml } from './helpers/compose-projects';

let t: TestApp;
let composeDir: string;
const projects = trackedProjects();
const newName = projects.name;

beforeAll(async () => {
  testEngine();
  t = await createTestApp();
  composeDir = t.ctx.config.composeDir;
});
afterEach(() => projects.cleanup());
afterAll(async () => {
  await t?.close();
});

/** A loopback port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Reads one entry of a zip with the system's unzip, independently of our zip writer. */
function unzipEntry(zip: Buffer, entry: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'berth-t-zip-')), 'b.zip');
  fs.writeFileSync(file, zip);
  const res = spawnSync('unzip', ['-p', file, entry], { encoding: 'utf8' });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  if (res.status !== 0) throw new Error(`unzip ${entry}: ${res.stderr}`);
  return res.stdout;
}

describe('compose project lifecycle', () => {
  it('creates a two-service project, brings it up, stops and starts one service, brings it down and deletes it', async () => {
    const name = newName('life');
    const yaml = twoServiceYaml().replace(
      'command: sleep 3600\n',
      'command: sleep 3600\n    volumes:\n      - data:/data\n',
    );

    const created = await t.client.post<{ path: string }>('/api/compose/', { name, content: yaml });
    expect(created.status, created.text).toBe(200);
    expect(created.body.path).toBe(path.join(fs.realpathSync(composeDir), name, 'compose.yaml'));
    expect(fs.readFileSync(created.body.path, 'utf8')).toBe(yaml);

    const list = await t.client.get<Project[]>('/api/compose/');
    const listed = list.body.find((p) => p.name === name);
    expect(listed).toMatchObject({ inUse: false, error: null, version: null, volumes: ['data'] });
    expect(listed!.status).toMatchObject({ state: 'not created', services: 2, runningServices: 0 });
    expect(Object.keys(listed!.services).sort()).toEqual(['web', 'worker']);
    expect(listed!.services.web).toMatchObject({
      image: testEngine().image,
      command: ['sleep', '3600'],
      environment: { SECRET_TOKEN: 'hunter2' },
    });
    expect(listed!.services.worker!.command).toBe('sleep 3600');

    const up = await t.client.post<ActionResult>(`/api/compose/${name}/actions/up`);
    expect(up.status, up.text).toBe(200);
    expect(up.body.output).toMatch(/Creating|Created|Started/);
    expect(up.body.projects.find((p) => p.name === name)).toMatchObject({
      inUse: true,
      status: { state: 'running', services: 2, runningServices: 2, containers: 2, runningContainers: 2 },
    });
    expect(
      projectContainers(name)
        .map((c) => `${c.service}:${c.state}`)
        .sort(),
    ).toEqual(['web:running', 'worker:running']);

    const detail = await t.client.get<ProjectDetail>(`/api/compose/${name}`);
    expect(detail.status).toBe(200);
    expect(detail.body.content).toBe(yaml);
    expect(detail.body.containers.map((c) => `${c.service}:${c.state}`).sort()).toEqual([
      'web:running',
      'worker:running',
    ]);

    const stop = await t.client.post<ActionResult>(`/api/compose/${name}/actions/stop/web`);
    expect(stop.status, stop.text).toBe(200);
    expect(
      projectContainers(name)
        .map((c) => `${c.service}:${c.state}`)
        .sort(),
    ).toEqual(['web:exited', 'worker:running']);
    const partial = await t.client.get<Project[]>('/api/compose/');
    expect(partial.body.find((p) => p.name === name)?.status).toMatchObject({ state: 'partial', runningServices: 1 });
    // The spec documents actions as GET; they are accepted as GET too.
    const start = await t.client.get<ActionResult>(`/api/compose/${name}/actions/start/web`);
    expect(start.status, start.text).toBe(200);
    expect(
      projectContainers(name)
        .map((c) => `${c.service}:${c.state}`)
        .sort(),
    ).toEqual(['web:running', 'worker:running']);

    const down = await t.client.get<ActionResult>(`/api/compose/${name}/actions/down`);
    expect(down.status, down.text).toBe(200);
    expect(projectContainers(name)).toEqual([]);
    expect(tryDockerCli(['volume', 'inspect', `${name}_data`]).status).toBe(0);

    await t.client.post(`/api/compose/${name}/actions/up`);
    expect(projectContainers(name)).toHaveLength(2);
    const del = await t.client.post<ActionResult>(`/api/compose/${name}/actions/delete`);
    expect(del.status, del.text).toBe(200);
    expect(projectContainers(name)).toEqual([]);
    expect(fs.existsSync(path.join(composeDir, name))).toBe(false);
    expect(del.body.projects.map((p) => p.name)).not.toContain(name);
    // delete brings the project down but keeps its volumes
    expect(tryDockerCli(['volume', 'inspect', `${name}_data`]).status).toBe(0);
    expect((await t.client.get(`/api/compose/${name}`)).status).toBe(404);
  });

  it('removes a service container with rm and recreates it with up, one service at a time', async () => {
    const name = newName('svc');
    expect((await t.client.post('/api/compose/', { name, content: twoServiceYaml() })).status).toBe(200);
    expect((await t.client.post(`/api/compose/${name}/actions/up/worker`)).status).toBe(200);
    expect(projectContainers(name).map((c) => c.service)).toEqual(['worker']);
    const rm = await t.client.post<ActionResult>(`/api/compose/${name}/actions/rm/worker`);
    expect(rm.status, rm.text).toBe(200);
    expect(projectContainers(name)).toEqual([]);
    const create = await t.client.post(`/api/compose/${name}/actions/create`);
    expect(create.status, create.text).toBe(200);
    expect(
      projectContainers(name)
        .map((c) => `${c.service}:${c.state}`)
        .sort(),
    ).toEqual(['web:created', 'worker:created']);
    expect((await t.client.post(`/api/compose/${name}/actions/rm`)).status).toBe(200);
    expect(projectContainers(name)).toEqual([]);
  });

  it('answers 404 for an unknown project or service and 400 for an unknown action', async () => {
    const name = newName('nf');
    expect((await t.client.get(`/api/compose/${name}`)).body).toMatchObject({
      code: 'not_found',
      detail: expect.stringContaining(name),
    });
    expect((await t.client.post(`/api/compose/${name}/actions/up`)).status).toBe(404);
    expect((await t.client.post('/api/compose/', { name, content: twoServiceYaml() })).status).toBe(200);
    const svc = await t.client.post(`/api/compose/${name}/actions/up/nosuch`);
    expect(svc.status).toBe(404);
    for (const action of ['run', 'exec', 'config', 'delete-all', 'UP']) {
      const res = await t.client.post(`/api/compose/${name}/actions/${action}`);
      expect(res.status, action).toBe(400);
    }
    // delete and down are project-wide only
    expect((await t.client.post(`/api/compose/${name}/actions/delete/web`)).status).toBe(400);
    expect((await t.client.post(`/api/compose/${name}/actions/up/-h`)).status).toBe(400);
    expect(projectContainers(name)).toEqual([]);
  });

  it('refuses to create a project that exists (409) and edits it in place', async () => {
    const name = newName('dup');
    expect((await t.client.post('/api/compose/', { name, content: twoServiceYaml() })).status).toBe(200);
    const again = await t.client.post('/api/compose/', { name, content: twoServiceYaml() });
    expect(again.status).toBe(409);
    const edited = twoServiceYaml().replace('# two services', '# edited');
    const res = await t.client.post(`/api/compose/${name}/edit`, { name, content: edited });
    expect(res.status, res.text).toBe(200);
    expect(fs.readFileSync(path.join(composeDir, name, 'compose.yaml'), 'utf8')).toBe(edited);
    const rename = await t.client.post(`/api/compose/${name}/edit`, { name: `${name}x`, content: edited });
    expect(rename.status).toBe(400);
    expect(fs.existsSync(path.join(composeDir, `${name}x`))).toBe(false);
  });
});

describe('compose file validation', () => {
  it('refuses invalid YAML with line and column and leaves the old file byte-identical', async () => {
    const name = newName('yaml');
    expect((await t.client.post('/api/compose/', { name, content: twoServiceYaml() })).status).toBe(200);
    const file = path.join(composeDir, name, 'compose.yaml');
    const before = fs.readFileSync(file);

    const bad = 'services:\n  web:\n    image: x\n   broken: y\n';
    const res = await t.client.post<{ detail: string; code: string }>(`/api/compose/${name}/edit`, {
      name,
      content: bad,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.detail).toMatch(/line 4, column \d+/);

    const tabs = await t.client.post<{ detail: string }>(`/api/compose/${name}/edit`, {
      name,
      content: 'services:\n\tweb: {}\n',
    });
    expect(tabs.status).toBe(400);
    expect(tabs.body.detail).toMatch(/line 2, column 1/);

    const quote = await t.client.post<{ detail: string }>(`/api/compose/${name}/edit`, {
      name,
      content: 'services:\n  web:\n    image: "unterminated\n',
    });
    expect(quote.status).toBe(400);
    expect(quote.body.detail).toMatch(/line \d+, column \d+/);

    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.readdirSync(path.join(composeDir, name))).toEqual(['compose.yaml']);
  });

  it("refuses a file the compose CLI's own check rejects, naming the problem, and keeps the old file", async () => {
    const name = newName('cli');
    expect((await t.client.post('/api/compose/', { name, content: twoServiceYaml() })).status).toBe(200);
    const file = path.join(composeDir, name, 'compose.yaml');
    const before = fs.readFileSync(file);
    const res = await t.client.post<{ detail: string }>(`/api/compose/${name}/edit`, {
      name,
      content: `services:\n  web:\n    image: ${testEngine().image}\n    depends_on: [frobnicate]\n`,
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/compose CLI refused.*frobnicate/s);
    expect(res.body.detail).not.toMatch(/berth-check/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    // no temp folder is left beside the projects
    expect(fs.readdirSync(composeDir).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('refuses a file that breaks the Compose Specification, naming the line, column and path, and keeps the old file', async () => {
    const name = newName('schema');
    expect((await t.client.post('/api/compose/', { name, content: twoServiceYaml() })).status).toBe(200);
    const file = path.join(composeDir, name, 'compose.yaml');
    const before = fs.readFileSync(file);
    const cases: [string, RegExp][] = [
      [
        'services:\n  web:\n    image: x\n    ports: {a: 1}\n',
        /line 4, column 12 \(services\.web\.ports\): must be a list/,
      ],
      [
        'services:\n  web:\n    image: x\n    restart: [1]\n',
        /line 4, column 14 \(services\.web\.restart\): must be a string/,
      ],
      [
        'x-base: &base\n  restart: always\nservices:\n  web:\n    <<: *base\n    image: x\n    helthcheck: {test: [CMD, "true"]}\n',
        /line 7, column 5 \(services\.web\.helthcheck\): "helthcheck" is not a key/,
      ],
    ];
    for (const [content, detail] of cases) {
      const res = await t.client.post<{ detail: string; code: string }>(`/api/compose/${name}/edit`, { name, content });
      expect(res.status, content).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.detail).toMatch(detail);
    }
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('saves real-world files the specification allows: top-level name, include, build contexts, profiles, x- extensions, anchors, healthchecks, interpolated values', async () => {
    const name = newName('realworld');
    const image = testEngine().image;
    const content = [
      `name: ${name}`,
      'include:',
      '  - path: ./shared/compose.yaml',
      '    project_directory: ./shared',
      'x-logging: &logging',
      '  driver: json-file',
      '  options: {max-size: 10m}',
      'x-common: &common',
      '  restart: ${RESTART:-unless-stopped}',
      '  logging: *logging',
      '  x-owner: team-a',
      'services:',
      '  web:',
      '    <<: *common',
      '    build:',
      '      context: ./web',
      '      args: {NODE_ENV: production}',
      `    image: ${image}`,
      '    command: sleep 600',
      '    ports: ["${WEB_PORT:-8080}:80", {target: 443, published: "${TLS_PORT:-8443}"}]',
      '    privileged: ${PRIVILEGED:-false}',
      '    healthcheck:',
      '      test: ["CMD-SHELL", "true"]',
      '      interval: 30s',
      '      retries: ${RETRIES:-3}',
      '    depends_on:',
      '      db: {condition: service_healthy}',
      '  db:',
      '    <<: *common',
      `    image: ${image}`,
      '    command: sleep 600',
      '    profiles: [backend]',
      '    healthcheck: {test: ["CMD", "true"], start_period: 5s}',
      'volumes:',
      '  data:',
      'networks:',
      '  default:',
      '    name: ${NETWORK:-' + name + '_net}',
      '',
    ].join('\n');
    const res = await t.client.post<{ content: string; warnings: string[] }>('/api/compose/', { name, content });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.warnings.join(' ')).toMatch(/build context \.\/web/);
    // The installed compose v1 CLI knows neither `name` nor `include`: warnings, not refusals.
    expect(res.body.warnings.join(' ')).toMatch(/top-level keys "include", "name"/);
    expect(fs.readFileSync(path.join(composeDir, name, 'compose.yaml'), 'utf8')).toBe(content);
  });

  it('saves what can be fixed later with a warning each: a missing build context and env file, spec keys the CLI is too old for (top level, service, nested)', async () => {
    const name = newName('later');
    const content = `name: ${name}\nservices:\n  web:\n    build: ./web\n    image: ${testEngine().image}\n    env_file: ./web.env\n    develop:\n      watch: []\n    healthcheck:\n      test: ["CMD", "true"]\n      start_interval: 1s\n    depends_on:\n      db: {condition: service_started, restart: true}\n  db:\n    image: ${testEngine().image}\n`;
    const res = await t.client.post<{ content: string; warnings: string[] }>('/api/compose/', { name, content });
    expect(res.status).toBe(200);
    expect(res.body.content).toBe(content);
    expect(res.body.warnings).toEqual([
      expect.stringContaining('top-level key "name"'),
      expect.stringContaining('"start_interval" in services.web.healthcheck'),
      expect.stringContaining('"restart" in services.web.depends_on'),
      expect.stringContaining('"develop" of service web'),
      'The build context ./web does not exist yet; create it before building or starting the project.',
      'The env file ./web.env does not exist yet; create it before starting the project.',
    ]);
    expect(res.body.warnings.join(' ')).not.toMatch(/berth-check/);
    expect(fs.readFileSync(path.join(composeDir, name, 'compose.yaml'), 'utf8')).toBe(content);
  });

  it('saves Compose Specification forms the v1 CLI refuses for its age with a warning each, and still refuses a real error', async () => {
    const name = newName('v1age');
    const image = testEngine().image;
    const content = [
      'services:',
      '  web:',
      `    image: ${image}`,
      '    command: echo ${GREETING:+hello}',
      '    configs: [motd]',
      '    environment:',
      '      DEBUG: true',
      '      PRICE: "5$ each"',
      'configs:',
      '  motd:',
      '    content: hello',
      '',
    ].join('\n');
    const res = await t.client.post<{ content: string; warnings: string[] }>('/api/compose/', { name, content });
    expect(res.status, res.text).toBe(200);
    expect(res.body.content).toBe(content);
    const said = res.body.warnings.join('\n');
    expect(res.body.warnings).toHaveLength(4);
    expect(said).toContain('The unquoted true in services.web.environment.DEBUG');
    expect(said).toContain('"5$ each" in the environment of service web');
    expect(said).toContain('"echo ${GREETING:+hello}" in the command of service web');
    expect(said).toContain('"content" in configs.motd');
    expect(fs.readFileSync(path.join(composeDir, name, 'compose.yaml'), 'utf8')).toBe(content);
    // The check went on without them: an unclosed "${" (no compose reads it) is still refused, naming it.
    const broken = content.replace('5$ each', '${PRICE');
    const refused = await t.client.post<{ detail: string }>(`/api/compose/${name}/edit`, { name, content: broken });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/Invalid interpolation format.*\$\{PRICE/);
  });

  it('turns a docker run line into a compose file that deploys with its ports, volumes, env, restart, network and labels', async () => {
    const name = newName('fromrun');
    const net = `${name}-net`;
    dockerCliOk(['network', 'create', '--label', 'berth-test=1', net]);
    try {
      const command = `docker run -d --name ${name}-web -p 127.0.0.1::80 -v ${name}-data:/data -e GREETING="hello world" --restart unless-stopped --network ${net} -l berth.test=run --frobnicate 1 ${testEngine().image} sleep 600`;
      const conv = await t.client.post<{ content: string; warnings: string[] }>('/api/compose/convert-run', {
        command,
      });
      expect(conv.status, conv.text).toBe(200);
      expect(conv.body.content).not.toContain('your project name');
      expect(conv.body.warnings).toEqual([
        expect.stringContaining('--frobnicate'),
        `Network ${net} must exist before the project starts, as for docker run.`,
      ]);
      expect((await t.client.post('/api/compose/', { name, content: conv.body.content })).status).toBe(200);
      const up = await t.client.post<ActionResult>(`/api/compose/${name}/actions/up`);
      expect(up.status, up.text).toBe(200);
      const inspect = JSON.parse(dockerCliOk(['inspect', `${name}-web`]))[0];
      expect(inspect.Config.Env).toContain('GREETING=hello world');
      expect(inspect.Config.Labels['berth.test']).toBe('run');
      expect(inspect.HostConfig.RestartPolicy.Name).toBe('unless-stopped');
      expect(inspect.HostConfig.PortBindings['80/tcp'][0].HostIp).toBe('127.0.0.1');
      expect(Object.keys(inspect.NetworkSettings.Networks)).toEqual([net]);
      expect(inspect.Mounts.map((m: { Destination: string }) => m.Destination)).toEqual(['/data']);
    } finally {
      tryDockerCli(['rm', '-f', `${name}-web`]);
      tryDockerCli(['volume', 'rm', '-f', `${name}-data`]);
      tryDockerCli(['network', 'rm', net]);
    }
  });

  it('refuses a command line that is not docker run, or names no image', async () => {
    for (const command of ['ls -la', 'docker run', '']) {
      const res = await t.client.post<{ code: string; fields: { field: string }[] }>('/api/compose/convert-run', {
        command,
      });
      expect(res.status, command).toBe(400);
      expect(res.body.fields[0]!.field).toBe('command');
    }
  });

  it('plans up before it runs: creates, recreates, pulls, orphans, a taken host port and a missing bind path', async () => {
    const name = newName('plan');
    const image = testEngine().image;
    const port = await freePort();
    const blocker = `${name}-blocker`;
    const missing = path.join(t.dataDir, 'not-there-yet');
    dockerCliOk([
      'run',
      '-d',
      '--name',
      blocker,
      '--label',
      'berth-test=1',
      '-p',
      `127.0.0.1:${port}:80`,
      image,
      'sleep',
      '600',
    ]);
    try {
      const file = (cmd: string, extra = '') =>
        `services:\n  web:\n    image: ${image}\n    command: ${cmd}\n    ports: ["127.0.0.1:${port}:80"]\n    volumes: ["${missing}:/data"]\n${extra}`;
      expect(
        (
          await t.client.post('/api/compose/', {
            name,
            content: file('sleep 600', `  gone:\n    image: ${image}\n    command: sleep 600\n`),
          })
        ).status,
      ).toBe(200);
      const first = await t.client.get<ProjectPlan>(`/api/compose/${name}/plan`);
      expect(first.status, first.text).toBe(200);
      expect(first.body).toEqual({
        services: [
          { name: 'gone', action: 'create', profiles: [], image, pull: false, build: false },
          { name: 'web', action: 'create', profiles: [], image, pull: false, build: false },
        ],
        active_profiles: [],
        orphans: [],
        port_conflicts: [{ service: 'web', port: `127.0.0.1:${port}/tcp`, used_by: blocker }],
        missing_binds: [{ service: 'web', path: missing }],
        binds_checked: true,
      });

      tryDockerCli(['rm', '-f', blocker]);
      expect((await t.client.post(`/api/compose/${name}/actions/up`)).status).toBe(200);
      const extra = `  pulled:\n    image: 127.0.0.1:5000/berth-test/never-pushed-${name}:1\n`;
      expect(
        (await t.client.post(`/api/compose/${name}/edit`, { name, content: file('sleep 601', extra) })).status,
      ).toBe(200);
      const next = await t.client.get<ProjectPlan>(`/api/compose/${name}/plan`);
      expect(next.body.services.map((s) => [s.name, s.action, s.pull])).toEqual([
        ['pulled', 'create', true],
        ['web', 'recreate', false],
      ]);
      expect(next.body.orphans).toEqual([{ name: expect.stringContaining('gone'), service: 'gone' }]);
      expect(next.body.port_conflicts).toEqual([]);
      expect(next.body.missing_binds).toEqual([]);
    } finally {
      tryDockerCli(['rm', '-f', blocker]);
    }
  });

  it('plans services of inactive profiles as inactive, with COMPOSE_PROFILES from the .env, as up then does', async () => {
    const name = newName('profiles');
    const image = testEngine().image;
    const svc = (n: string, profiles = '') => `  ${n}:\n    image: ${image}\n    command: sleep 600\n${profiles}`;
    const content = `services:\n${svc('web')}${svc('dbg', '    profiles: [debug]\n')}${svc('tools', '    profiles: [tools, debug]\n')}`;
    const made = await t.client.post('/api/compose/', { name, content, env: 'COMPOSE_PROFILES=tools\n' });
    expect(made.status, made.text).toBe(200);
    const plan = await t.client.get<ProjectPlan>(`/api/compose/${name}/plan`);
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.active_profiles).toEqual(['tools']);
    expect(Object.fromEntries(plan.body.services.map((s) => [s.name, [s.action, s.profiles]]))).toEqual({
      web: ['create', []],
      dbg: ['inactive', ['debug']],
      tools: ['create', ['tools', 'debug']],
    });
    // up starts what the plan said it would, and nothing of the inactive profile.
    expect((await t.client.post(`/api/compose/${name}/actions/up`)).status).toBe(200);
    const services = dockerCliOk([
      'ps',
      '-a',
      '--filter',
      `label=com.docker.compose.project=${name}`,
      '--format',
      '{{.Label "com.docker.compose.service"}}',
    ]);
    expect(services.split('\n').filter(Boolean).sort()).toEqual(['tools', 'web']);
    // Started, the profile's containers are not orphans, and the inactive one is still only inactive.
    const again = await t.client.get<ProjectPlan>(`/api/compose/${name}/plan`);
    expect(again.body.orphans).toEqual([]);
    expect(again.body.services.find((s) => s.name === 'dbg')?.action).toBe('inactive');
  });

  it('lists a project started outside Berth as external, runs its actions, and adopts it', async () => {
    const name = newName('outside');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-t-outside-'));
    const content = `services:\n  web:\n    image: ${testEngine().image}\n    command: sleep 600\n`;
    fs.writeFileSync(path.join(dir, 'docker-compose.yml'), content);
    fs.writeFileSync(path.join(dir, '.env'), 'TOKEN=outside-secret\n');
    const sneaky = `${name}-sneaky`;
    try {
      const up = spawnSync('docker-compose', ['-p', name, 'up', '-d'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, DOCKER_HOST: testEngine().dockerHost },
      });
      expect(up.status, up.stderr).toBe(0);
      // A label naming a file that is not a compose file is never read.
      dockerCliOk([
        'create',
        '--name',
        sneaky,
        '--label',
        `com.docker.compose.project=${sneaky}`,
        '--label',
        'com.docker.compose.project.working_dir=/etc',
        '--label',
        'com.docker.compose.project.config_files=/etc/shadow',
        testEngine().image,
      ]);

      const list = (await t.client.get<Project[]>('/api/compose/')).body;
      expect(list.find((p) => p.name === name)).toMatchObject({
        external: true,
        inUse: true,
        path: path.join(dir, 'docker-compose.yml'),
        error: null,
      });
      expect(list.find((p) => p.name === sneaky)).toMatchObject({
        external: true,
        error: expect.stringContaining('not readable'),
      });
      expect((await t.client.get(`/api/compose/${sneaky}`)).status).toBe(404);
      const detail = await t.client.get<ProjectDetail>(`/api/compose/${name}`);
      expect(detail.body).toMatchObject({ external: true, content });

      expect((await t.client.post(`/api/compose/${name}/actions/stop`)).status).toBe(200);
      expect(projectContainers(name).map((c) => c.state)).toEqual(['exited']);
      expect((await t.client.request('PUT', `/api/compose/${name}/env`, { content: 'A=1\n' })).status).toBe(409);

      const adopted = await t.client.post<{ path: string }>(`/api/compose/${name}/adopt`);
      expect(adopted.status, adopted.text).toBe(200);
      expect(adopted.body.path).toBe(path.join(composeDir, name, 'compose.yaml'));
      expect(fs.readFileSync(path.join(composeDir, name, '.env'), 'utf8')).toBe('TOKEN=outside-secret\n');
      const after = (await t.client.get<Project[]>('/api/compose/')).body.find((p) => p.name === name);
      expect(after).toMatchObject({ external: false, inUse: true });
      expect((await t.client.post(`/api/compose/${name}/adopt`)).status).toBe(409);
    } finally {
      tryDockerCli(['rm', '-f', sneaky]);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves no folder behind when a new project is refused', async () => {
    const name = newName('newbad');
    for (const content of [
      '',
      'just a string',
      '- a\n- list\n',
      'services: [a, b]\n',
      'services:\n  a:\n    image: x\n    ports: "abc"\n',
    ]) {
      const res = await t.client.post('/api/compose/', { name, content });
      expect(res.status, content).toBe(400);
    }
    expect(fs.existsSync(path.join(composeDir, name))).toBe(false);
  });
});

describe('save check copies', () => {
  it('never makes its check copy among the project folders', async () => {
    const name = newName('checkcopy');
    const seen: string[] = [];
    fs.mkdirSync(composeDir, { recursive: true });
    const watcher = fs.watch(composeDir, (_event, file) => file && seen.push(file));
    try {
      const res = await t.client.post('/api/compose/', { name, content: twoServiceYaml() });
      expect(res.status, res.text).toBe(200);
      // inotify keeps order: once the marker is seen, anything the save made was seen before it.
      const marker = `.marker-${name}`;
      fs.writeFileSync(path.join(composeDir, marker), '');
      await expect.poll(() => seen.includes(marker), { timeout: 30_000 }).toBe(true);
      fs.rmSync(path.join(composeDir, marker));
    } finally {
      watcher.close();
    }
    expect(seen.filter((f) => f !== name && !f.startsWith('.marker-'))).toEqual([]);
  });

  it('sweeps the copies an interrupted save left, old and new locations, at start', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-test-'));
    const leftovers = [
      path.join(dataDir, 'compose', '.berth-check-0123456789ab'),
      path.join(dataDir, '.tmp', 'compose-check', '.berth-check-ba9876543210'),
    ];
    for (const dir of leftovers) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'compose.yaml'), 'services:\n  a:\n    environment:\n      PASSWORD: hunter2\n');
    }
    const keep = path.join(dataDir, 'compose', 'kept', 'compose.yaml');
    fs.mkdirSync(path.dirname(keep));
    fs.writeFileSync(keep, twoServiceYaml());
    const app = await createTestApp({ DATA_DIR: dataDir });
    try {
      for (const dir of leftovers) expect(fs.existsSync(dir), dir).toBe(false);
      expect(fs.readFileSync(keep, 'utf8')).toBe(twoServiceYaml());
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('project discovery', () => {
  it('discovers a project folder made by hand, using the first compose file name in order', async () => {
    const name = newName('hand');
    const dir = path.join(composeDir, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'docker-compose.yml'),
      `version: "3.8"\nservices:\n  app:\n    image: ${testEngine().image}\n`,
    );
    const res = await t.client.get<Project[]>('/api/compose/');
    expect(res.body.find((p) => p.name === name)).toMatchObject({
      path: path.join(fs.realpathSync(composeDir), name, 'docker-compose.yml'),
      version: '3.8',
      error: null,
    });

    fs.writeFileSync(path.join(dir, 'compose.yml'), `services:\n  other:\n    image: ${testEngine().image}\n`);
    const second = await t.client.get<ProjectDetail>(`/api/compose/${name}`);
    expect(second.body.path.endsWith('/compose.yml')).toBe(true);
    expect(Object.keys(second.body.services)).toEqual(['other']);
  });

  it('lists a broken project with its error without breaking the list, and still serves its content for fixing', async () => {
    const good = newName('good');
    const broken = newName('broken');
    expect((await t.client.post('/api/compose/', { name: good, content: twoServiceYaml() })).status).toBe(200);
    fs.mkdirSync(path.join(composeDir, broken));
    fs.writeFileSync(path.join(composeDir, broken, 'compose.yaml'), 'services:\n  a: [unclosed\n');
    fs.mkdirSync(path.join(composeDir, 'Not.Valid'));
    fs.writeFileSync(path.join(composeDir, 'Not.Valid', 'compose.yaml'), 'services: {}\n');
    try {
      const res = await t.client.get<Project[]>('/api/compose/');
      expect(res.status).toBe(200);
      expect(res.body.find((p) => p.name === good)?.error).toBeNull();
      expect(res.body.find((p) => p.name === broken)?.error).toMatch(/line \d+, column \d+/);
      expect(res.body.find((p) => p.name === 'Not.Valid')?.error).toMatch(/lowercase/);
      const detail = await t.client.get<ProjectDetail>(`/api/compose/${broken}`);
      expect(detail.status).toBe(200);
      expect(detail.body.content).toBe('services:\n  a: [unclosed\n');
      expect(detail.body.error).toMatch(/line/);
      // a broken project with no containers can still be deleted
      const del = await t.client.post(`/api/compose/${broken}/actions/delete`);
      expect(del.status, del.text).toBe(200);
      expect(fs.existsSync(path.join(composeDir, broken))).toBe(false);
    } finally {
      fs.rmSync(path.join(composeDir, 'Not.Valid'), { recursive: true, force: true });
    }
  });
});

describe('support bundle', () => {
  it('zips the compose file with environment values redacted and each service log', async () => {
    const name = newName('bundle');
    const content = twoServiceYaml().replace(
      'command: ["sleep", "3600"]',
      'command: ["sh", "-c", "echo bundle-line; exec sleep 3600"]',
    );
    expect((await t.client.post('/api/compose/', { name, content })).status).toBe(200);
    expect((await t.client.post(`/api/compose/${name}/actions/up/web`)).status).toBe(200);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/compose/${name}/support`,
      headers: { cookie: [...t.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${name}_bundle.zip"`);
    const zip = res.rawPayload;
    const file = unzipEntry(zip, 'compose.yaml');
    // Comments are dropped (a commented-out entry holds old values as often as not).
    expect(file).not.toContain('# two services for a Berth test');
    expect(file).toContain('SECRET_TOKEN: "********"');
    expect(file).not.toContain('hunter2');
    expect(unzipEntry(zip, 'web.log')).toMatch(/Z bundle-line\n$/);
    expect(unzipEntry(zip, 'worker.log')).toMatch(/No container/);
  });
});

describe('support bundle redaction', () => {
  it('redacts environment values reached through anchors, aliases and merge keys', async () => {
    const name = newName('anchors');
    const image = testEngine().image;
    const content = `# anchored secrets
x-env: &env
  DB_PASSWORD: anchored-secret-1
x-list: &list
  - API_KEY=anchored-secret-2
x-base: &base
  image: ${image}
  environment:
    BASE_TOKEN: anchored-secret-3
x-one: &one anchored-secret-4
services:
  a:
    image: ${image}
    environment: *env
  b:
    image: ${image}
    environment: *list
  c:
    <<: *base
  d:
    image: ${image}
    environment:
      <<: *env
      SINGLE: *one
      PLAIN: plain-secret-5
`;
    const saved = await t.client.post('/api/compose/', { name, content });
    expect(saved.status, saved.text).toBe(200);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/compose/${name}/support`,
      headers: { cookie: [...t.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(res.statusCode, res.body).toBe(200);
    const file = unzipEntry(res.rawPayload, 'compose.yaml');
    expect(file).not.toMatch(/secret-\d/);
    expect(file).not.toContain('# anchored secrets');
    expect(file).toContain('DB_PASSWORD: "********"');
    expect(file).toContain('API_KEY=********');
  });
});
