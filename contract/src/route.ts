import type { z } from 'zod';

/** One endpoint of Berth's public API: the server registers it, the web app calls it. */
export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  /**
   * Other methods the server also accepts at this path. The spec documents some
   * state-changing calls as GET; they are accepted as GET and POST, each with the CSRF check.
   */
  alsoMethods?: readonly ('GET' | 'POST' | 'DELETE')[];
  /** Open routes skip the auth check; everything else is denied by default. */
  open?: boolean;
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
}

export function defineRoute<const T extends RouteDef>(def: T): T {
  return def;
}

export type RouteResponse<T extends RouteDef> = z.output<T['response']>;

/** Fills `{name}` placeholders of a contract path; each value is URL-encoded. */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`missing path parameter ${key}`);
    return encodeURIComponent(String(value));
  });
}
