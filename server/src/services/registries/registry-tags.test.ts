import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegistryCredentials } from './credentials';
import { RegistryTagLister, tagSource } from './registry-tags';

// A loopback peer speaking the v2 tags list with Link pagination and the Bearer token flow (Docker Hub's way):
// the harness's registries answer Basic auth only, and a real repository of 250 tags would take 250 pushes.
const TAGS = Array.from({ length: 250 }, (_, i) => `1.0.${i}`);
let server: http.Server;
let host: string;
const seen = { tokens: 0, pages: 0 };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/token') {
      seen.tokens++;
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"token":"t1"}');
    }
    if (req.headers.authorization !== 'Bearer t1')
      return void res
        .writeHead(401, { 'www-authenticate': `Bearer realm="http://${host}/token",scope="repository:team/app:pull"` })
        .end();
    seen.pages++;
    const n = Number(url.searchParams.get('n'));
    const last = url.searchParams.get('last');
    const start = last ? TAGS.indexOf(last) + 1 : 0;
    const tags = TAGS.slice(start, start + n);
    const more = start + n < TAGS.length;
    res.writeHead(200, {
      'content-type': 'application/json',
      'docker-distribution-api-version': 'registry/2.0',
      ...(more ? { link: `</v2/team/app/tags/list?n=${n}&last=${tags.at(-1)}>; rel="next"` } : {}),
    });
    res.end(JSON.stringify({ name: 'team/app', tags }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('registry tag lists (issue 33)', () => {
  const credentials = {
    targetFor: (h: string) => ({ host: h, username: null, password: null, ca: null }),
  } as unknown as RegistryCredentials;

  it('reads every page with one token, keeps the list, and shares it only within the environment', async () => {
    const lister = new RegistryTagLister(credentials, { allowLoopback: true });
    const local = lister.forEnvironment('local');
    expect(await local.list(`${host}/team/app:1.0.0`, 60_000)).toEqual(TAGS);
    expect(seen).toEqual({ tokens: 1, pages: 3 });
    // Kept: the same repository under another tag is not read again, and the list shows it without a request.
    expect(await local.list(`${host}/team/app:1.0.3`, 60_000)).toHaveLength(250);
    expect(local.cached(`${host}/team/app:latest`)).toHaveLength(250);
    expect(seen.pages).toBe(3);
    expect(lister.forEnvironment('other').cached(`${host}/team/app:1.0.0`)).toBeNull();
  });

  it("names Docker Hub's official images by their library/ path", () => {
    expect(tagSource('nginx:1.25')).toEqual({ host: 'docker.io', path: 'library/nginx' });
    expect(tagSource('ghcr.io/org/app:v1')).toEqual({ host: 'ghcr.io', path: 'org/app' });
  });
});
