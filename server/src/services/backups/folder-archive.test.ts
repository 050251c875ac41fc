import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderSink } from './folder-archive';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-folder-sink-'));
  fs.mkdirSync(path.join(tmp, 'outside'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const none = () => Readable.from([]);
const mtime = new Date(0);

describe('folderSink', () => {
  it('refuses entries that a link from the archive would carry out of the folder', async () => {
    const into = path.join(tmp, 'into');
    const outside = path.join(tmp, 'outside');
    const sink = folderSink(into);
    await sink.entry({ name: '', type: 'directory', mode: 0o755, mtime }, '', none(), null);
    await sink.entry({ name: 'a', type: 'symlink', linkname: outside, mode: 0o777, mtime }, 'a', none(), null);
    await sink.entry({ name: 'in', type: 'symlink', linkname: 'sub', mode: 0o777, mtime }, 'in', none(), null);
    await sink.entry({ name: 'sub', type: 'directory', mode: 0o755, mtime }, 'sub', none(), null);

    const file = { name: 'a/x', type: 'file' as const, size: 1, mode: 0o644, mtime };
    await expect(sink.entry(file, 'a/x', Readable.from([Buffer.from('x')]), null)).rejects.toThrow(/through a link/);
    await expect(sink.entry({ ...file, type: 'directory' }, 'a/d', none(), null)).rejects.toThrow(/through a link/);
    await expect(sink.entry({ ...file, type: 'directory' }, 'a', none(), null)).rejects.toThrow(/through a link/);
    fs.writeFileSync(path.join(outside, 'secret'), 's');
    await expect(sink.entry({ ...file, type: 'link', linkname: 'a/secret' }, 'copy', none(), null)).rejects.toThrow(
      /through a link/,
    );
    expect(fs.readdirSync(outside)).toEqual(['secret']);

    // A link that stays inside still works.
    await sink.entry({ ...file, name: 'in/y' }, 'in/y', Readable.from([Buffer.from('y')]), null);
    expect(fs.readFileSync(path.join(into, 'sub', 'y'), 'utf8')).toBe('y');
  });
});
