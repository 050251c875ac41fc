import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/database';
import { RegistriesRepo } from '../../db/registries-repo';
import { deriveKey, open, seal } from '../../lib/secret-box';
import { dockerConfigFor, imageRegistryHost, normalizeRegistryHost, RegistryCredentials } from './credentials';

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-reg-'));
  dirs.push(dir);
  const db = openDatabase(dir);
  dbs.push(db);
  const key = deriveKey(Buffer.alloc(32, 7), 'registries');
  const repo = new RegistriesRepo(db);
  const now = new Date().toISOString();
  const add = (name: string, host: string, password: string, environments: string[] | null) =>
    repo.insert({
      name,
      server_address: host,
      username: `${name}-user`,
      password_sealed: seal(key, password),
      ca_cert: null,
      environments: environments ? JSON.stringify(environments) : null,
      created_at: now,
      updated_at: now,
    });
  return { repo, add, credentials: new RegistryCredentials(repo, (s) => open(key, s)), key };
}

describe('registry hosts', () => {
  it('normalizes what a person types into the host image references name', () => {
    expect(normalizeRegistryHost('https://GHCR.io/')).toBe('ghcr.io');
    expect(normalizeRegistryHost('index.docker.io')).toBe('docker.io');
    expect(normalizeRegistryHost('https://index.docker.io/v1/')).toBe('docker.io');
    expect(normalizeRegistryHost('127.0.0.1:5000')).toBe('127.0.0.1:5000');
    expect(normalizeRegistryHost('registry.gitlab.com/group/x')).toBe('registry.gitlab.com');
    expect(normalizeRegistryHost('not a host')).toBeNull();
  });

  it("finds an image reference's registry, Docker Hub for the shorthand", () => {
    expect(imageRegistryHost('nginx')).toBe('docker.io');
    expect(imageRegistryHost('library/nginx:1')).toBe('docker.io');
    expect(imageRegistryHost('docker.io/library/nginx')).toBe('docker.io');
    expect(imageRegistryHost('ghcr.io/org/app:1.2')).toBe('ghcr.io');
    expect(imageRegistryHost('127.0.0.1:5001/private/app@sha256:' + 'a'.repeat(64))).toBe('127.0.0.1:5001');
    expect(imageRegistryHost('sha256:' + 'a'.repeat(64))).toBeNull();
  });
});

describe('RegistryCredentials', () => {
  it('chooses the credential by host among those the environment may use, opening the sealed password', () => {
    const { add, credentials } = setup();
    add('hub', 'docker.io', 'hub-secret', null);
    add('mine', '127.0.0.1:5001', 'local-only', ['local']);
    add('mine-remote', '127.0.0.1:5001', 'remote-secret', ['remote']);
    expect(credentials.forImage('nginx:latest', 'local')).toEqual({
      username: 'hub-user',
      password: 'hub-secret',
      serveraddress: 'https://index.docker.io/v1/',
    });
    expect(credentials.forImage('127.0.0.1:5001/app', 'local')?.password).toBe('local-only');
    expect(credentials.forImage('127.0.0.1:5001/app', 'remote')?.password).toBe('remote-secret');
    expect(credentials.forImage('127.0.0.1:5001/app', 'elsewhere')).toBeUndefined();
    expect(credentials.forImage('ghcr.io/org/app', 'local')).toBeUndefined();
  });

  it('writes a docker config with only the auths the images need', () => {
    const { add, credentials } = setup();
    add('mine', '127.0.0.1:5001', 'pw', null);
    add('other', 'ghcr.io', 'unused', null);
    const config = dockerConfigFor(['127.0.0.1:5001/a:1', '127.0.0.1:5001/b', 'busybox'], credentials.lookup('local'));
    expect(config).toEqual({ auths: { '127.0.0.1:5001': { auth: Buffer.from('mine-user:pw').toString('base64') } } });
  });
});
