import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Store } from './s3-store';

// An endpoint that takes the connection and never answers (a stuck proxy, a wrong port).
const sockets = new Set<net.Socket>();
const silent = net.createServer((s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});
let endpoint: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

describe('S3 store', () => {
  it('gives up on an endpoint that never answers, naming no credential', async () => {
    const store = s3Store(
      { endpoint, region: 'us-east-1', bucket: 'b', prefix: '', access_key_id: 'AKIDEXAMPLE', path_style: true },
      { secret_access_key: 'the-secret-key' },
      { idleMs: 300 },
    );
    const started = Date.now();
    const err = (await store.check().catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^S3 b\/berth-check\.tmp: /);
    expect(err.message).not.toContain('the-secret-key');
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 30_000);
});
