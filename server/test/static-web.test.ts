import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';

/** A built web app laid out as `vite build` writes it: hashed assets with .br/.gz beside them. */
function writeDist(dir: string): { script: string; body: string } {
  const body = `console.log(${JSON.stringify('berth '.repeat(400))});\n`;
  const script = '/assets/index-Ab12Cd34.js';
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  const files: Record<string, string> = {
    'index.html': `<!doctype html><html><head><script type="module" src="${script}"></script></head><body><div id="root"></div></body></html>`,
    [script.slice(1)]: body,
  };
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content));
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content));
  }
  return { script, body };
}

let t: TestApp;
let dist: string;
let asset: { script: string; body: string };
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-web-'));
  asset = writeDist(dist);
  t = await createTestApp({ WEB_DIST: dist }, { signIn: false });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('static web app', () => {
  it('sends a hashed asset precompressed by what the browser accepts, cached for good', async () => {
    const c = t.anon();
    const br = await t.app.inject({ url: asset.script, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(asset.body);

    const gz = await t.app.inject({ url: asset.script, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(asset.body);

    const plain = await c.get(asset.script, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(asset.body);
  });

  it('has the browser revalidate index.html, also as the fallback for app paths', async () => {
    for (const url of ['/', '/index.html', '/some/app/path']) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(zlib.gunzipSync(res.rawPayload).toString(), url).toContain('<div id="root">');
    }
  });
});
