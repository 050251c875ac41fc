import { describe, expect, it } from 'vitest';
import { formatImageReference, parseImageReference } from './image-reference';
import { PullImageBody } from './image';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('parseImageReference', () => {
  it('splits a registry with a port from the repository and tag', () => {
    expect(parseImageReference('127.0.0.1:5000/berth-test/busybox:latest')).toEqual({
      domain: '127.0.0.1:5000',
      path: 'berth-test/busybox',
      repository: '127.0.0.1:5000/berth-test/busybox',
      tag: 'latest',
      digest: null,
    });
  });

  it('treats a registry port without a tag as part of the name', () => {
    expect(parseImageReference('localhost:5000/app')).toMatchObject({
      domain: 'localhost:5000',
      path: 'app',
      tag: null,
    });
  });

  it('reads Docker Hub shorthand and digests', () => {
    expect(parseImageReference('busybox')).toMatchObject({
      domain: null,
      repository: 'busybox',
      tag: null,
      digest: null,
    });
    expect(parseImageReference('library/nginx:1.25-alpine')).toMatchObject({
      domain: null,
      path: 'library/nginx',
      tag: '1.25-alpine',
    });
    expect(parseImageReference(`repo@${DIGEST}`)).toMatchObject({ repository: 'repo', tag: null, digest: DIGEST });
    expect(parseImageReference(`ghcr.io/o/r:v1@${DIGEST}`)).toMatchObject({
      domain: 'ghcr.io',
      path: 'o/r',
      tag: 'v1',
      digest: DIGEST,
    });
  });

  it('refuses what docker pull refuses', () => {
    const bad = [
      '',
      'nginx;id',
      '--help',
      'UPPER/Case:tag',
      'a@sha256:xyz',
      'x'.repeat(300),
      'Nginx',
      'repo:',
      'repo:-tag',
      'a//b',
      'a/../b',
      'host:99999/a',
      ':tag',
      'a b',
    ];
    for (const ref of bad) expect('error' in parseImageReference(ref), JSON.stringify(ref)).toBe(true);
  });

  it('formats back to canonical text', () => {
    const ref = parseImageReference(' 127.0.0.1:5000/x/y:1 ');
    if ('error' in ref) throw new Error(ref.error);
    expect(formatImageReference(ref)).toBe('127.0.0.1:5000/x/y:1');
  });
});

describe('PullImageBody', () => {
  it('rejects a bad reference with the reason and unknown fields', () => {
    const res = PullImageBody.safeParse({ image: 'nginx;id' });
    expect(res.success).toBe(false);
    expect(res.error?.issues[0]?.message).toMatch(/not a valid repository name part/);
    expect(PullImageBody.safeParse({ image: 'busybox', extra: 1 }).success).toBe(false);
  });
});
