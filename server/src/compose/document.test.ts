import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { expandedSize, MAX_EXPANDED_SIZE, parseCompose } from './document';

/** Shaped like Sentry's self-hosted compose file: defaults that merge defaults, merged into 40 services. */
function sentryLike(services = 40): string {
  const deps = Array.from({ length: 12 }, (_, i) => `    dep${i}:\n      <<: *depends_on-healthy`).join('\n');
  const head = `x-restart-policy: &restart_policy
  restart: unless-stopped
x-depends_on-healthy: &depends_on-healthy
  condition: service_healthy
x-healthcheck-defaults: &healthcheck_defaults
  interval: 30s
  timeout: 1m30s
  retries: 10
x-sentry-defaults: &sentry_defaults
  <<: *restart_policy
  image: sentry:latest
  depends_on:
${deps}
  environment:
    PYTHONUSERBASE: /data/custom-packages
    SENTRY_CONF: /etc/sentry
  volumes:
    - sentry-data:/data
services:
`;
  const body = Array.from(
    { length: services },
    (_, i) =>
      `  web${i}:\n    <<: *sentry_defaults\n    healthcheck:\n      <<: *healthcheck_defaults\n      test: ["CMD", "true"]\n`,
  ).join('');
  return `${head}${body}volumes:\n  sentry-data: {}\n`;
}

describe('alias expansion (issue 39 #33)', () => {
  it('accepts a file that reuses anchors heavily, as Sentry self-hosted does', () => {
    const { data } = parseCompose(sentryLike());
    const services = data.services as Record<string, { depends_on: Record<string, unknown>; restart: string }>;
    expect(Object.keys(services)).toHaveLength(40);
    expect(services.web39!.restart).toBe('unless-stopped');
    expect(services.web39!.depends_on.dep11).toEqual({ condition: 'service_healthy' });
  });

  it('refuses a "billion laughs" file by its expanded size, quickly, without expanding it', () => {
    const laughs = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      ...'bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
      'services: {}',
    ].join('\n');
    const started = performance.now();
    expect(() => parseCompose(laughs)).toThrow(/too many aliases/);
    expect(performance.now() - started).toBeLessThan(500);
    expect(expandedSize(parseDocument(laughs))).toBeGreaterThan(MAX_EXPANDED_SIZE);
  });

  it('measures a file without aliases as its own size', () => {
    expect(expandedSize(parseDocument('a: [1, "xy"]'))).toBe(1 + 2 + (1 + 2 + 3));
  });
});
