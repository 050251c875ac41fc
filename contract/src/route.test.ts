import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contract from './index';
import { API_TAGS, ROUTE_SCOPES, defineRoute, type RouteDef } from './route';

/** Every route of the contract: each `*Api` object the contract exports. */
const ROUTES: { name: string; def: RouteDef }[] = Object.entries(contract)
  .filter(([key, value]) => key.endsWith('Api') && typeof value === 'object' && value !== null)
  .flatMap(([api, routes]) =>
    Object.entries(routes as Record<string, RouteDef>).map(([name, def]) => ({ name: `${api}.${name}`, def })),
  );

describe('the contract', () => {
  it('declares a valid scope and tag on every route', () => {
    expect(ROUTES.length).toBeGreaterThan(100);
    const bad = ROUTES.filter(
      ({ def }) =>
        !(ROUTE_SCOPES as readonly unknown[]).includes(def.scope) || !Object.hasOwn(API_TAGS, def.tag as string),
    ).map((r) => r.name);
    expect(bad).toEqual([]);
  });

  it('gives every environment route a spec path under /api/ (served again under /api/environments/{env}/)', () => {
    const bad = ROUTES.filter(
      ({ def }) =>
        def.scope === 'environment' && (!def.path.startsWith('/api/') || def.path.startsWith('/api/environments/')),
    ).map((r) => r.name);
    expect(bad).toEqual([]);
  });

  it('refuses, at typecheck, a route without a scope', () => {
    const unscoped = () =>
      // @ts-expect-error: `scope` is required (the typecheck fails without it; this line proves it does).
      defineRoute({ method: 'GET', role: 'viewer', path: '/api/x', tag: 'apps', summary: 'x', response: z.null() });
    expect(unscoped().path).toBe('/api/x');
  });
});
