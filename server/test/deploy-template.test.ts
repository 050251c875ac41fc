import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiError,
  DeployBody,
  DeployResult,
  TemplateDetail,
  TemplateItem,
  TemplateVariable,
  TemplateWriteResult,
} from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';
import { json, startCatalogueServer, type CatalogueServer } from './templates-fixtures';

/** What the deploy form sends when it is filled from a template item. */
function payloadFrom(item: TemplateItem, name: string): DeployBody {
  return {
    name,
    image: item.image,
    restart_policy: item.restart_policy ?? 'unless-stopped',
    command: item.command,
    network: item.network,
    // A catalogue may name any mode; the deploy schema is what judges it.
    network_mode: item.network_mode as DeployBody['network_mode'],
    ports: item.ports,
    volumes: item.volumes,
    env: item.env.map(({ options: _options, ...e }) => e),
    labels: item.labels,
    devices: item.devices,
    sysctls: item.sysctls,
    cap_add: item.cap_add as DeployBody['cap_add'],
    cpus: item.cpus,
    mem_limit: item.mem_limit,
    privileged: item.privileged,
    interactive: item.interactive,
    hostname: item.hostname,
  };
}

describe('deploy from a template', () => {
  let t: TestApp;
  let cat: CatalogueServer;
  let dir: string;
  const name = uniqueName('deploy-tpl');
  const anonymousVolumes: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ TEMPLATE_FETCH_ALLOW_LOOPBACK: 'true' });
    cat = await startCatalogueServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-t-deploy-tpl-'));
  });
  afterAll(async () => {
    cleanup('container', name);
    cleanup('volume', ...anonymousVolumes);
    fs.rmSync(dir, { recursive: true, force: true });
    await t?.close();
    await cat?.close();
  });

  it('substitutes !variables in volume host paths, env values and labels (whole tokens only)', async () => {
    const defaults = (await t.client.get<TemplateVariable[]>('/api/settings/variables')).body;
    const saved = await t.client.post('/api/settings/variables', [
      ...defaults,
      { variable: '!berthtestdir', replacement: dir },
    ]);
    expect(saved.status).toBe(200);

    cat.routes.set(
      '/app.yml',
      json(`
- title: Sleeper
  image: ${testEngine().image}
  command: sh -c "sleep 3600"
  restart_policy: unless-stopped
  ports:
    - "127.0.0.1::8080/tcp"
  volumes:
    - bind: "!berthtestdir/config"
      container: /config
    - container: /anonymous
  env:
    - name: PUID
      label: User id
      default: "!PUID"
    - name: LITERAL
      default: "pass!PUID"
    - name: VENDOR ID
      select:
        - text: First
          value: "1"
        - text: Second
          value: "2"
          default: true
  interactive: true
  hostname: tpl-host
  labels:
    - label: berth.test
      value: "1"
    - label: data.dir
      value: "!berthtestdir"
  mem_limit: 32m
`),
    );
    const created = await t.client.post<TemplateWriteResult>('/api/templates/', {
      title: 'Variables',
      url: `${cat.base}/app.yml`,
    });
    expect(created.status, created.text).toBe(200);
    const [summary] = (await t.client.get<TemplateDetail>(`/api/templates/${created.body.id}`)).body.items;
    const item = (await t.client.get<TemplateItem>(`/api/templates/app/${summary!.id}`)).body;
    expect(item.volumes[0]!.bind).toBe('!berthtestdir/config');
    // Issue 39 #7, #8, #9, #11: an anonymous volume, select options, a name with a space, and the
    // privileged / interactive / hostname fields all reach the item.
    expect(item.volumes[1]).toEqual({ bind: '', container: '/anonymous' });
    expect(item.env[2]).toMatchObject({
      name: 'VENDOR ID',
      default: '2',
      options: [
        { label: 'First', value: '1' },
        { label: 'Second', value: '2' },
      ],
    });
    // privileged is read too (unit tests); this engine, itself in a container, cannot start a privileged one.
    expect(item).toMatchObject({ privileged: false, interactive: true, hostname: 'tpl-host' });
    expect(item.ports).toEqual([{ label: null, host_ip: '127.0.0.1', hport: null, cport: '8080', proto: 'tcp' }]);

    const res = await t.client.post<DeployResult>('/api/apps/deploy', payloadFrom(item, name));
    expect(res.status, res.text).toBe(200);
    const info = JSON.parse(dockerCli(['inspect', name]))[0];
    expect(info.HostConfig.Binds).toEqual([`${dir}/config:/config`]);
    // The catalogue's host IP is kept: a loopback-only port stays loopback-only (issue 39 #1).
    expect(info.HostConfig.PortBindings).toEqual({ '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }] });
    expect(info.Config.Env).toEqual(expect.arrayContaining(['PUID=1000', 'LITERAL=pass!PUID', 'VENDOR ID=2']));
    expect(info.Mounts).toEqual(
      expect.arrayContaining([expect.objectContaining({ Type: 'volume', Destination: '/anonymous', RW: true })]),
    );
    anonymousVolumes.push(
      ...(info.Mounts as { Destination: string; Name: string }[])
        .filter((m) => m.Destination === '/anonymous')
        .map((m) => m.Name),
    );
    expect(info.Config).toMatchObject({ Hostname: 'tpl-host', Tty: true, OpenStdin: true });
    expect(info.HostConfig.Privileged).toBe(false);
    expect(info.Config.Labels).toMatchObject({ 'berth.test': '1', 'data.dir': dir });
    expect(info.Config.Cmd).toEqual(['sh', '-c', 'sleep 3600']);
    expect(info.HostConfig.Memory).toBe(32 * 1024 * 1024);
    expect(fs.existsSync(path.join(dir, 'config'))).toBe(true);
  });

  it('refuses an env value with an unset variable, naming it, and creates nothing', async () => {
    const other = uniqueName('deploy-tpl');
    const res = await t.client.post<ApiError>('/api/apps/deploy', {
      name: other,
      image: testEngine().image,
      restart_policy: 'none',
      env: [{ name: 'X', default: '!notdefined' }],
      labels: [{ label: 'berth.test', value: '1' }],
    });
    expect(res.status).toBe(400);
    // Said as a sentence naming the variable and where it is used (issue 23.8), not as 'env.0.default: …'.
    expect(res.body.detail).toBe(
      'The template variable !notdefined is not set (used in environment variable X, field env.0.default); add it under Settings → Template Variables, or change the value.',
    );
    expect(res.body.fields).toEqual([{ field: 'env.0.default', message: 'Unset template variable used: !notdefined' }]);
    expect(dockerCli(['ps', '-a', '--filter', `name=${other}`, '--format', '{{.Names}}']).trim()).toBe('');
  });
});
