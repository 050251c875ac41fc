import { describe, expect, it } from 'vitest';
import { CatalogueError, MAX_ITEMS, containerName, parseCatalogue } from './template-parse';
import { ItemError, parseEnv, parsePortString, parsePorts, splitCommand } from './template-parse-fields';

const SRC = { url: 'https://example.test/catalogue.json', contentType: 'application/json' };
const YAML_SRC = { url: 'https://example.test/catalogue.yml', contentType: 'text/plain' };

describe('parsePortString', () => {
  it('reads host:container/proto, container/proto, :container and a bare port (tcp by default)', () => {
    expect(parsePortString('8080:80/tcp')).toEqual([
      { label: null, host_ip: null, hport: '8080', cport: '80', proto: 'tcp' },
    ]);
    expect(parsePortString('53/udp')).toEqual([{ label: null, host_ip: null, hport: null, cport: '53', proto: 'udp' }]);
    expect(parsePortString(':80/UDP')).toEqual([
      { label: null, host_ip: null, hport: null, cport: '80', proto: 'udp' },
    ]);
    expect(parsePortString('9000', 'Web')).toEqual([
      { label: 'Web', host_ip: null, hport: null, cport: '9000', proto: 'tcp' },
    ]);
  });

  it('expands equal host and container ranges', () => {
    expect(parsePortString('7000-7002:8000-8002/tcp').map((p) => `${p.hport}:${p.cport}`)).toEqual([
      '7000:8000',
      '7001:8001',
      '7002:8002',
    ]);
  });

  it('keeps a host IP in front (IPv4, bracketed IPv6, with or without a host port) (issue 39 #1)', () => {
    expect(parsePortString('127.0.0.1:8080:80/tcp')).toEqual([
      { label: null, host_ip: '127.0.0.1', hport: '8080', cport: '80', proto: 'tcp' },
    ]);
    expect(parsePortString('[::1]::53/udp')).toEqual([
      { label: null, host_ip: '::1', hport: null, cport: '53', proto: 'udp' },
    ]);
    expect(parsePorts([{ cport: '22', hport: '2222', host_ip: '10.0.0.1' }])[0]?.host_ip).toBe('10.0.0.1');
  });

  it('refuses bad host IPs, other protocols, out-of-range ports and mismatched ranges', () => {
    for (const bad of [
      '999.0.0.1:8080:80/tcp',
      '[zz::1]:80:80',
      '80/sctp',
      '99999:80',
      'abc',
      '1-5:1-3',
      '8000-9000:8000-9000',
    ]) {
      expect(() => parsePortString(bad), bad).toThrow(ItemError);
    }
  });

  it('reads labelled objects (every key of every object) and objects in our own shape, mixed with strings', () => {
    expect(
      parsePorts([
        '80/tcp',
        { WebUI: '5800:5800/tcp', VNC: '5900:5900/tcp' },
        { Other: '1:1/udp' },
        { cport: '22', hport: '', proto: 'tcp', label: 'SSH' },
      ]),
    ).toEqual([
      { label: null, host_ip: null, hport: null, cport: '80', proto: 'tcp' },
      { label: 'WebUI', host_ip: null, hport: '5800', cport: '5800', proto: 'tcp' },
      { label: 'VNC', host_ip: null, hport: '5900', cport: '5900', proto: 'tcp' },
      { label: 'Other', host_ip: null, hport: '1', cport: '1', proto: 'udp' },
      { label: 'SSH', host_ip: null, hport: null, cport: '22', proto: 'tcp' },
    ]);
  });
});

describe('splitCommand', () => {
  it('splits on whitespace and keeps quoted words together', () => {
    expect(splitCommand(`sh -c "echo 'hi there'" --x='a b' c\\ d`)).toEqual([
      'sh',
      '-c',
      "echo 'hi there'",
      '--x=a b',
      'c d',
    ]);
    expect(splitCommand('  ')).toEqual([]);
  });
  it('refuses an unclosed quote', () => {
    expect(() => splitCommand('echo "oops')).toThrow(ItemError);
  });
});

describe('containerName', () => {
  it('keeps a valid name and derives one from the title otherwise', () => {
    expect(containerName('my-app', 'x')).toBe('my-app');
    expect(containerName(undefined, 'Home Assistant (Core)')).toBe('home-assistant-core');
    expect(containerName(undefined, 'Ü')).toBe('app');
  });
});

describe('parseEnv', () => {
  it('accepts a name with a space, as the engine does, and refuses = and line breaks (issue 39 #11)', () => {
    expect(parseEnv([{ name: 'VENDOR ID', default: '1' }])[0]).toMatchObject({ name: 'VENDOR ID', default: '1' });
    for (const name of ['A=B', 'A\nB']) expect(() => parseEnv([{ name }]), name).toThrow(ItemError);
  });
});

describe('parseCatalogue', () => {
  const yachtItem = {
    type: 1,
    title: 'Handbrake',
    platform: 'linux',
    image: 'jlesage/handbrake:latest',
    ports: [{ WebUI: '5800:5800/tcp' }],
    volumes: [{ container: '/config', bind: '!config/handbrake' }],
    env: [{ name: 'PUID', label: 'PUID', default: '!PUID' }],
    sysctls: [{ 'net.ipv4.ip_forward': '1' }],
    cap_add: ['net_admin'],
    devices: [{ container: '/dev/dri', host: '/dev/dri' }],
    labels: [{ label: 'traefik.enable', value: 'true' }],
    cpus: '1.5',
    mem_limit: '512m',
    restart_policy: 'unless-stopped',
    command: 'run --fast',
    logo: 'javascript:alert(1)',
    note: 'Read me',
  };

  it('reads the original product format (a JSON list) with its extensions', () => {
    const { items, skipped } = parseCatalogue(JSON.stringify([yachtItem]), SRC);
    expect(skipped).toEqual([]);
    expect(items[0]).toMatchObject({
      title: 'Handbrake',
      name: 'handbrake',
      notes: 'Read me',
      logo: '',
      command: ['run', '--fast'],
      ports: [{ label: 'WebUI', hport: '5800', cport: '5800', proto: 'tcp' }],
      volumes: [{ bind: '!config/handbrake', container: '/config' }],
      env: [{ name: 'PUID', label: 'PUID', default: '!PUID', description: null }],
      sysctls: [{ name: 'net.ipv4.ip_forward', value: '1' }],
      cap_add: ['NET_ADMIN'],
      devices: [{ container: '/dev/dri', host: '/dev/dri' }],
      labels: [{ label: 'traefik.enable', value: 'true' }],
      cpus: 1.5,
      mem_limit: '512m',
      restart_policy: 'unless-stopped',
      categories: [],
    });
  });

  it('reads Portainer v2 objects with select env, readonly volumes and a relative logo', () => {
    const doc = {
      version: '2',
      templates: [
        {
          type: 1,
          title: 'Nginx',
          image: 'nginx:latest',
          logo: '/logos/nginx.png',
          ports: ['80/tcp', '443/tcp'],
          volumes: [{ container: '/etc/nginx', bind: '/srv/nginx', readonly: true }, { container: '/cache' }],
          env: [
            {
              name: 'MODE',
              label: 'Mode',
              select: [
                { text: 'A', value: 'a' },
                { text: 'B', value: 'b', default: true },
              ],
            },
          ],
          categories: ['web', 3],
          privileged: true,
          interactive: true,
          hostname: 'edge',
        },
        { type: 3, title: 'Stack', repository: { url: 'https://x', stackfile: 'a.yml' } },
      ],
    };
    const { items, skipped } = parseCatalogue(JSON.stringify(doc), SRC);
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      logo: 'https://example.test/logos/nginx.png',
      env: [
        {
          name: 'MODE',
          default: 'b',
          options: [
            { label: 'A', value: 'a' },
            { label: 'B', value: 'b' },
          ],
        },
      ],
      privileged: true,
      interactive: true,
      hostname: 'edge',
      volumes: [
        { bind: '/srv/nginx', container: '/etc/nginx', readonly: true },
        { bind: '', container: '/cache' },
      ],
      categories: ['web'],
    });
    expect(items[1]).toMatchObject({
      type: 3,
      title: 'Stack',
      image: '',
      privileged: false,
      interactive: false,
      hostname: '',
      stack: { kind: 'compose', url: 'https://x/a.yml' },
    });
    expect(skipped).toEqual([]);
  });

  it('reads string types, stack templates of every kind, and skips Windows-only entries with their reason', () => {
    const doc = [
      { type: 'container', title: 'Web', image: 'nginx:1' },
      { type: '1', title: 'Numeric string', image: 'redis:7' },
      {
        type: 'swarm',
        title: 'On a swarm',
        repository: { url: 'https://github.com/acme/stacks.git', stackfile: 'web/docker-stack.yml' },
      },
      { type: 'stack', title: 'Lab', repository: { url: 'https://gitlab.com/acme/lab', stackfile: '/compose.yaml' } },
      { title: 'Own stackfile', stackfile: 'stacks/app.yml' },
      { type: 1, title: 'IIS', image: 'mcr.microsoft.com/windows/servercore/iis', platform: 'windows' },
      { type: 'vm', title: 'Odd' },
    ];
    const { items, skipped } = parseCatalogue(JSON.stringify(doc), SRC);
    expect(items.map((i) => [i.title, i.type, i.stack?.kind ?? null, i.stack?.url ?? null])).toEqual([
      ['Web', 1, null, null],
      ['Numeric string', 1, null, null],
      ['On a swarm', 2, 'swarm', 'https://raw.githubusercontent.com/acme/stacks/HEAD/web/docker-stack.yml'],
      ['Lab', 3, 'compose', 'https://gitlab.com/acme/lab/-/raw/HEAD/compose.yaml'],
      ['Own stackfile', 3, 'compose', 'https://example.test/stacks/app.yml'],
    ]);
    expect(skipped).toEqual([
      { index: 5, title: 'IIS', reason: 'Windows-only template' },
      { index: 6, title: 'Odd', reason: 'unknown type vm' },
    ]);
  });

  it('reads YAML and reports a broken entry without failing the rest', () => {
    const yaml = [
      '- title: Good',
      '  image: busybox',
      '  ports: ["8080:80/tcp"]',
      '- title: Bad',
      '  image: busybox',
      '  ports: ["99999:80"]',
      '- just a string',
    ].join('\n');
    const { items, skipped } = parseCatalogue(yaml, YAML_SRC);
    expect(items.map((i) => i.title)).toEqual(['Good']);
    expect(skipped).toEqual([
      { index: 1, title: 'Bad', reason: expect.stringContaining('99999:80') },
      { index: 2, title: null, reason: 'not an object' },
    ]);
  });

  it('refuses HTML, malformed text, a wrong shape, no usable entries and too many entries without quoting the body', () => {
    const cases: [string, typeof SRC][] = [
      ['<html><body>secret-token</body></html>', SRC],
      ['{"secret-token": ', SRC],
      ['secret-token: [', YAML_SRC],
      ['{"version": "2"}', SRC],
      ['[{"title": "secret-token"}]', SRC],
      [JSON.stringify(Array.from({ length: MAX_ITEMS + 1 }, () => ({ title: 'x', image: 'busybox' }))), SRC],
      ['a: &a [*a]', YAML_SRC],
    ];
    for (const [body, src] of cases) {
      let error: unknown;
      try {
        parseCatalogue(body, src);
      } catch (err) {
        error = err;
      }
      expect(error, body.slice(0, 40)).toBeInstanceOf(CatalogueError);
      expect((error as Error).message).not.toContain('secret-token');
    }
  });

  it('refuses deeply nested documents', () => {
    const deep = '['.repeat(100) + ']'.repeat(100);
    expect(() => parseCatalogue(deep, SRC)).toThrow(/nested deeper/);
  });
});
