import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { produceArchive, openArchive } from '../src/services/backups/archive-pipeline';
import { packVolume, unpackSections, volumeSink, volumeTree } from '../src/services/backups/volume-archive';
import { SYSTEM_ACTOR } from '../src/services/policy/policy';
import { createTestApp, type TestApp } from './helpers/app';
import { testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';
import { fillVolume, volumeCreate } from './backups-fixtures';

describe('volume archives (helper container, zstd, age, tree checksum)', () => {
  let t: TestApp;
  let dir: string;
  const volumes: string[] = [];
  const source = uniqueName('bak-src');
  const image = testEngine().image;

  beforeAll(async () => {
    t = await createTestApp({ HELPER_IMAGE: image });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bak-'));
    volumes.push(source);
    volumeCreate(source);
    fillVolume(source, 10_000);
  }, 240_000);
  afterAll(async () => {
    cleanup('volume', ...volumes);
    fs.rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  const access = () => ({ docker: t.ctx.docker, helpers: t.services.environments.local.helpers, actor: SYSTEM_ACTOR });

  async function backup(file: string, passphrase: string | null) {
    return produceArchive(
      (pack) => packVolume(access(), source, pack),
      passphrase,
      (stream) => pipeline(stream, fs.createWriteStream(file)),
      10, // a cheap scrypt: this machine is shared, and the work factor is not what is tested
    );
  }

  async function restore(file: string, passphrase: string | null, into: string) {
    const { tar, tally } = await openArchive(fs.createReadStream(file), passphrase);
    const sections = await unpackSections(
      tar,
      (name) => {
        const m = /^volumes\/([^/]+)(?:\/(.*))?$/.exec(name);
        return m ? { section: m[1]!, relative: m[2] ?? '' } : null;
      },
      async () => volumeSink(access(), into),
    );
    return { sections, sha256: tally.sha256 };
  }

  it('backs up 10,000 files and restores them into a new volume with the same tree checksum', async () => {
    const file = path.join(dir, 'a.tar.zst');
    const started = Date.now();
    const made = await backup(file, null);
    const backupMs = Date.now() - started;
    expect(made.filled.files).toBe(10_000 + 3); // d/f*, big1, big2, .hidden (hard1 is a link)
    expect(made.filled.entries).toBeGreaterThan(10_000);
    expect(made.bytes).toBe(fs.statSync(file).size);
    expect(made.tarBytes).toBeGreaterThan(made.bytes);

    const target = uniqueName('bak-dst');
    volumes.push(target);
    volumeCreate(target);
    const restoredAt = Date.now();
    const { sections, sha256 } = await restore(file, null, target);
    const restoreMs = Date.now() - restoredAt;
    expect(sha256).toBe(made.sha256);
    const one = sections.get(source)!;
    expect(one.archived.sha256).toBe(made.filled.sha256);
    expect(one.written).toEqual(made.filled);
    // Read back independently: the same tree, modes, owners, symlinks and bytes.
    expect((await volumeTree(access(), target)).sha256).toBe(made.filled.sha256);
    console.log(
      `10k files: backup ${backupMs} ms, restore+verify ${restoreMs} ms, tar ${made.tarBytes} B, archive ${made.bytes} B`,
    );
  }, 240_000);

  it('encrypts with a passphrase; a wrong one is refused before anything is written', async () => {
    const file = path.join(dir, 'b.tar.zst.age');
    const made = await backup(file, 'correct horse');
    const head = fs.readFileSync(file).subarray(0, 22).toString();
    expect(head).toBe('age-encryption.org/v1\n');
    await expect(openArchive(fs.createReadStream(file), 'wrong horse')).rejects.toMatchObject({
      code: 'validation_error',
    });
    const target = uniqueName('bak-enc');
    volumes.push(target);
    volumeCreate(target);
    const { sections } = await restore(file, 'correct horse', target);
    expect(sections.get(source)!.written?.sha256).toBe(made.filled.sha256);
  }, 240_000);

  it('a changed tree hashes differently', async () => {
    const before = await volumeTree(access(), source);
    const target = uniqueName('bak-chg');
    volumes.push(target);
    volumeCreate(target);
    const file = path.join(dir, 'c.tar.zst');
    await backup(file, null);
    await restore(file, null, target);
    const { dockerCli } = await import('./helpers/engine');
    dockerCli(['run', '--rm', '-v', `${target}:/v`, image, 'chmod', '640', '/v/d/f5']);
    const after = await volumeTree(access(), target);
    expect(after.files).toBe(before.files);
    expect(after.sha256).not.toBe(before.sha256);
  }, 240_000);
});
