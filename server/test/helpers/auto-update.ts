import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { AutoUpdateRun } from '@berth/contract';
import type { TestClient } from './app';
import { dockerCli, testEngine, tryDockerCli } from './engine';

/**
 * A repository of this test's own in the local registry (`<registry>/berth-t-<feature>-<hex>/<name>:latest`):
 * images built offline from the test image and pushed under the same tag, each one's digest kept,
 * and everything removed again (local images, the registry's manifests) by `remove`.
 */
export function testRepository(feature: string, name = 'app') {
  const repo = `${testEngine().registry}/berth-t-${feature}-${randomBytes(4).toString('hex')}/${name}`;
  const ref = `${repo}:latest`;
  const images: string[] = [];
  const digests: string[] = [];
  return {
    ref,
    images,
    digests,
    /** `repo:tag` of this repository. */
    tagged: (tag: string) => `${repo}:${tag}`,
    /** Builds an image from the test image under `ref` (or `repo:tag`; `extra` adds Dockerfile lines), pushes it; returns its id. */
    publish(extra = '', tag = 'latest'): string {
      const dockerfile = `FROM ${testEngine().image}\n${extra}LABEL berth.nonce="${Math.random()}"\n`;
      const target = `${repo}:${tag}`;
      const id = dockerCli(['build', '-q', '-t', target, '--label', 'berth.test=1', '-'], {
        input: dockerfile,
        timeoutMs: 120_000,
      }).trim();
      images.push(id);
      dockerCli(['push', target], { timeoutMs: 120_000 });
      digests.push(dockerCli(['inspect', '--format', '{{index .RepoDigests 0}}', id]).trim().split('@')[1]!);
      return id;
    },
    async remove(): Promise<void> {
      tryDockerCli(['rmi', '-f', ref, ...images]);
      const [registry, ...path] = repo.split('/');
      for (const digest of digests)
        await fetch(`http://${registry}/v2/${path.join('/')}/manifests/${digest}`, { method: 'DELETE' });
    },
  };
}

/** Starts an auto-update run now and waits (bounded) until it has finished. */
export async function runAutoUpdate(client: TestClient): Promise<AutoUpdateRun> {
  const started = await client.post<{ id: number }>('/api/settings/auto-update/run');
  expect(started.status, started.text).toBe(200);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const run = await client.get<AutoUpdateRun>(`/api/settings/auto-update/runs/${started.body.id}`);
    if (run.body.finished_at) return run.body;
    if (Date.now() > deadline) throw new Error(`run ${started.body.id} did not finish: ${run.text}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/**
 * A local webhook receiver with a channel and rules for the auto-update events (`scope` narrows
 * them to one app or project): `notification(...words)` waits for a delivered body that mentions
 * every word (delivery is asynchronous).
 */
export async function autoUpdateHook(client: TestClient, scope: { app: string } | { project: string }) {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const channel = await client.post<{ id: number }>('/api/notifications/channels', {
    name: 'auto-update hook',
    type: 'webhook',
    url,
  });
  expect(channel.status, channel.text).toBe(200);
  for (const event of ['update_available', 'auto_update']) {
    const rule = await client.post('/api/notifications/rules', { event, channels: [channel.body.id], scope });
    expect(rule.status, rule.text).toBe(200);
  }
  return {
    async notification(...words: string[]): Promise<string> {
      for (let i = 0; i < 150; i++) {
        const hit = received.find((b) => words.every((w) => b.includes(w)));
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`no notification with ${words.join(', ')}; got ${JSON.stringify(received)}`);
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
