import { describe, expect, it } from 'vitest';
import * as contract from '@berth/contract';
import type { AuditEntry, RouteDef } from '@berth/contract';
import { auditSentence, pastTense } from './sentence';

const entry = (e: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  time: '2026-11-27T14:00:00.000Z',
  user: 'admin@berth.local',
  client: '127.0.0.1',
  method: 'POST',
  route: '/api/compose/',
  target: null,
  status: 200,
  summary: 'Something',
  ...e,
});

describe('auditSentence', () => {
  it('says who did what to which thing, where, and whether it was refused', () => {
    const del = { method: 'DELETE', route: '/api/resources/volumes/{name}', target: 't3walk-data' };
    expect(auditSentence(entry(del))).toBe('admin@berth.local deleted volume t3walk-data');
    expect(
      auditSentence(
        entry({ ...del, route: '/api/environments/{env}/resources/volumes/{name}', summary: 'Remove (environment b)' }),
      ),
    ).toBe('admin@berth.local deleted volume t3walk-data on environment b');
    const stop = { route: '/api/apps/actions/{name}/{action}', target: 'web/stop' };
    expect(auditSentence(entry({ ...stop, status: 409 }))).toBe(
      'admin@berth.local tried to stop app web (refused: 409)',
    );
    // The spec's GET alias of an action reads the same.
    expect(auditSentence(entry({ ...stop, method: 'GET' }))).toBe('admin@berth.local stopped app web');
    expect(
      auditSentence(
        entry({
          route: '/api/compose/{project}/actions/{action}/{service}',
          target: 'shop/up/db',
          user: 'op (key ci)',
        }),
      ),
    ).toBe('op (key ci) brought up service db of project shop');
    // A tag of a registry path keeps its slashes.
    expect(
      auditSentence(
        entry({
          method: 'DELETE',
          route: '/api/resources/images/{id}/tags/{tag}',
          target: 'sha256:ab/127.0.0.1:5000/bb:1',
        }),
      ),
    ).toBe('admin@berth.local removed tag 127.0.0.1:5000/bb:1 of image sha256:ab');
    expect(auditSentence(entry({ route: '/api/auth/login', user: 'unknown user', status: 401 }))).toBe(
      'An unknown user tried to sign in (refused: 401)',
    );
    expect(
      auditSentence(entry({ route: '/api/apps/actions/batch', target: 'web', summary: 'restart web (one of 3)' })),
    ).toBe('admin@berth.local restarted app web (one of 3)');
    expect(pastTense('roll back')).toBe('rolled back');
  });

  it('has a sentence for every call the audit log records (none falls back to the API summary)', () => {
    const routes = Object.entries(contract)
      .filter(([name]) => name.endsWith('Api'))
      .flatMap(([, api]) => Object.values(api as Record<string, RouteDef>))
      .filter((r) => r.method !== 'GET' || r.audited || r.alsoMethods?.length);
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes
      .map((r) => entry({ method: r.method, route: r.path, target: 'x', summary: r.summary }))
      .filter((e) => auditSentence(e).includes(' called "'))
      .map((e) => `${e.method} ${e.route}`);
    expect(missing).toEqual([]);
  });
});
