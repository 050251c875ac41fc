import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { composePolicyFeatures } from '../compose-schema/policy-features';
import { DEFAULT_POLICY, EnvironmentPolicy } from './policy';
import { judgePolicy, type JudgeContext, type PolicyFeature } from './policy-judge';

const DATA = '/var/lib/berth';
const ctx = (over: Partial<JudgeContext> = {}): JudgeContext => ({
  role: 'operator',
  environment: 'local',
  policy: DEFAULT_POLICY,
  protectedPaths: [
    { path: DATA, what: "Berth's data folder" },
    { path: '/var/run/docker.sock', what: 'the Docker engine socket' },
    { path: '/etc', what: "the host's configuration" },
  ],
  ownDirs: [`${DATA}/compose/app`],
  ...over,
});
const features = (yaml: string) => composePolicyFeatures(parseDocument(yaml, { merge: true }).toJS());
const bind = (value: string): PolicyFeature => ({ rule: 'bind_mounts', value, field: 'f' });

describe('composePolicyFeatures: every encoding of the same request', () => {
  it.each([
    ['short syntax', 'services: {a: {volumes: ["/srv/x:/x:ro"]}}', 'bind_mounts', '/srv/x'],
    ['long syntax', 'services: {a: {volumes: [{type: bind, source: /srv/x, target: /x}]}}', 'bind_mounts', '/srv/x'],
    ['relative path', 'services: {a: {volumes: ["./data:/x"]}}', 'bind_mounts', './data'],
    [
      'volume with driver_opts bind',
      'services: {a: {volumes: ["v:/x"]}}\nvolumes: {v: {driver_opts: {type: none, o: bind, device: /srv/x}}}',
      'bind_mounts',
      '/srv/x',
    ],
    ['merge key', 'x-b: &b {volumes: ["/srv/x:/x"]}\nservices: {a: {<<: *b, image: i}}', 'bind_mounts', '/srv/x'],
    ['privileged', 'services: {a: {privileged: true}}', 'privileged', 'true'],
    ['pid host', 'services: {a: {pid: host}}', 'host_pid', 'host'],
    ['network_mode host', 'services: {a: {network_mode: host}}', 'host_network', 'host'],
    [
      'external host network',
      'services: {a: {networks: [hn]}}\nnetworks: {hn: {external: true, name: host}}',
      'host_network',
      'host',
    ],
    ['userns host', 'services: {a: {userns_mode: host}}', 'host_userns', 'host'],
    ['device', 'services: {a: {devices: ["/dev/sda:/dev/sda"]}}', 'devices', '/dev/sda'],
    ['cap_add', 'services: {a: {cap_add: [SYS_ADMIN]}}', 'cap_add', 'SYS_ADMIN'],
    ['sysctls map', 'services: {a: {sysctls: {net.core.somaxconn: 1024}}}', 'sysctls', 'net.core.somaxconn'],
    ['volumes_from a container', 'services: {a: {volumes_from: ["container:admin-app"]}}', 'volumes_from', 'admin-app'],
    ['cgroup_parent', 'services: {a: {cgroup_parent: /system.slice}}', 'cgroup_parent', '/system.slice'],
    ['pid of a container', 'services: {a: {pid: "container:berth"}}', 'namespace', 'berth'],
    ['network of a container', 'services: {a: {network_mode: "container:berth"}}', 'namespace', 'berth'],
  ])('%s', (_, yaml, rule, value) => {
    expect(features(yaml)).toContainEqual(expect.objectContaining({ rule, value }));
  });

  it('leaves anonymous volumes and service volumes_from alone', () => {
    expect(
      features('services: {a: {volumes: ["/anon", {type: volume, target: /t}], volumes_from: [b]}, b: {}}'),
    ).toEqual([]);
  });
});

describe('composePolicyFeatures: the engine name of each named volume', () => {
  const volumes = (yaml: string, project?: string) =>
    composePolicyFeatures(parseDocument(yaml).toJS(), { project })
      .filter((f) => f.rule === 'volume')
      .map((f) => [f.value, f.field]);

  it.each([
    ['the default <project>_<key>', 'volumes: {db: {}}', 'proj_db'],
    ['an undeclared key, as its default', 'volumes: {}', 'proj_db'],
    ['top-level name:', 'volumes: {db: {name: berth_data}}', 'berth_data'],
    ['external: true', 'volumes: {db: {external: true}}', 'db'],
    ['external: true with a name', 'volumes: {db: {external: true, name: berth_data}}', 'berth_data'],
    ['the legacy external: {name}', 'volumes: {db: {external: {name: berth_data}}}', 'berth_data'],
  ])('%s', (_, top, name) => {
    const yaml = `services: {a: {volumes: ["db:/x:ro", {type: volume, source: db, target: /y}]}}\n${top}`;
    expect(volumes(yaml, 'proj')).toEqual([
      [name, 'services.a.volumes.0'],
      [name, 'services.a.volumes.1.source'],
    ]);
  });

  it('knows only the names the file spells out without a project (the web before a name is typed)', () => {
    expect(volumes('services: {a: {volumes: ["db:/x", "e:/y"]}}\nvolumes: {db: {}, e: {name: own}}')).toEqual([
      ['db', 'services.a.volumes.0'],
      ['own', 'services.a.volumes.1'],
    ]);
  });
});

describe('judgePolicy', () => {
  it('never restricts an admin', () => {
    expect(judgePolicy([bind('/'), { rule: 'privileged', value: 'true', field: 'p' }], ctx({ role: 'admin' }))).toEqual(
      [],
    );
  });

  it.each([
    [DATA, 'would expose'],
    [`${DATA}/keys`, 'is inside'],
    ['/var', 'would expose'], // a parent of DATA_DIR holds it
    ['/', 'would expose'],
    ['/var/run/docker.sock', 'would expose'],
    ['/etc/shadow', 'is inside'],
    [`${DATA}/compose/app/compose.yaml`, 'is inside'], // the project's own file: a container could rewrite it
    [`${DATA}/compose/app`, 'is inside'],
    [`${DATA}/compose/other/data`, 'is inside'],
  ])('refuses %s whatever the policy says about binds', (path, words) => {
    const [v] = judgePolicy([bind(path)], ctx({ policy: { ...DEFAULT_POLICY, bind_mounts: 'allow' } }));
    expect(v?.message).toContain(words);
  });

  it('lets a bind inside the project folder through, and judges the rest by bind_mounts', () => {
    expect(judgePolicy([bind(`${DATA}/compose/app/data`)], ctx())).toEqual([]);
    const [v] = judgePolicy([bind('/srv/media')], ctx());
    expect(v?.message).toBe(
      'Bind mount /srv/media is outside the paths your admin allows for operators on environment local (Settings → Environments → local → Policy).',
    );
    const allow = { ...DEFAULT_POLICY, bind_allowlist: ['/srv/media'] };
    expect(
      judgePolicy([bind('/srv/media/films'), bind('/srv/media2')], ctx({ policy: allow })).map((x) => x.value),
    ).toEqual(['/srv/media2']);
    const deny = { ...DEFAULT_POLICY, bind_mounts: 'deny' as const, bind_allowlist: ['/srv/media'] };
    expect(judgePolicy([bind('/srv/media/films')], ctx({ policy: deny }))[0]?.message).toContain('not allowed');
  });

  it("refuses Berth's own volumes and volumes_from its container whatever the policy; others pass", () => {
    const own = ctx({
      policy: EnvironmentPolicy.parse({ volumes_from: 'allow' }),
      protectedVolumes: [{ name: 'berth_data', what: "Berth's data (mounted at /config)" }],
      protectedContainers: ['berth', 'a'.repeat(64)],
    });
    const f: PolicyFeature[] = [
      { rule: 'volume', value: 'berth_data', field: 'v' },
      { rule: 'volume', value: 'app_data', field: 'w' },
      { rule: 'volumes_from', value: 'berth', field: 'f' },
      { rule: 'volumes_from', value: 'aaaa', field: 'g' },
      { rule: 'volumes_from', value: 'other', field: 'h' },
      { rule: 'namespace', value: 'berth', field: 'pid' },
      { rule: 'namespace', value: 'other', field: 'ipc' },
    ];
    const found = judgePolicy(f, own);
    expect(found.map((v) => v.field)).toEqual(['v', 'f', 'g', 'pid']);
    expect(found[0]?.message).toContain("Volume berth_data holds Berth's data (mounted at /config), which no operator");
    expect(judgePolicy(f, { ...own, role: 'admin' })).toEqual([]);
    expect(judgePolicy(f.slice(0, 2), ctx())).toEqual([]);
  });

  it('refuses each switch by default and names its rule; allowing it lets it through', () => {
    const f: PolicyFeature[] = [
      { rule: 'privileged', value: 'true', field: 'privileged' },
      { rule: 'host_pid', value: 'host', field: 'pid' },
      { rule: 'security_opt', value: 'seccomp:unconfined', field: 'so' },
      { rule: 'security_opt', value: 'no-new-privileges:true', field: 'so' },
      { rule: 'cap_add', value: 'NET_ADMIN', field: 'cap' },
      { rule: 'terminal_user', value: '0', field: 'user' },
    ];
    expect(judgePolicy(f, ctx()).map((v) => v.rule)).toEqual([
      'privileged',
      'host_pid',
      'security_opt',
      'cap_add',
      'terminal_user',
    ]);
    expect(judgePolicy(f, ctx())[0]?.message).toContain(
      'Privileged mode is not allowed for operators on environment local',
    );
    const open = EnvironmentPolicy.parse({
      privileged: 'allow',
      host_pid: 'allow',
      security_opt: 'allow',
      cap_add_allowlist: ['CAP_NET_ADMIN'],
      terminal_user: 'allow',
    });
    expect(judgePolicy(f, ctx({ policy: open }))).toEqual([]);
    expect(judgePolicy([{ rule: 'cap_add', value: 'ALL', field: 'c' }], ctx({ policy: open }))).toHaveLength(1);
  });
});
