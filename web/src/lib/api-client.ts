import { authApi, ErrorCodeSchema, fillPath, type ErrorCode, type RouteDef, type RouteResponse } from '@berth/contract';
import type { z } from 'zod';
import { session } from './session';

/** The server's codes, plus the ones the client makes itself when no server answer says more. */
export type ApiErrorCode = ErrorCode | 'http_error' | 'network_error' | 'stream_ended';

/** A code read from a server body; anything Berth does not know becomes 'http_error'. */
export function errorCode(value: unknown): ApiErrorCode {
  const known = ErrorCodeSchema.safeParse(value);
  return known.success ? known.data : 'http_error';
}

/** Any failed call. `detail` is the server's human text, `code` its machine code ('http_error' when the answer had none Berth knows). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly detail: string,
    readonly code: ApiErrorCode,
  ) {
    super(`${statusText}: ${detail}`);
    this.name = 'ApiError';
  }
}

type Input<S> = S extends z.ZodType ? z.input<S> : never;

export interface CallOptions<T extends RouteDef> {
  params?: Input<T['params']>;
  query?: Input<T['querystring']>;
  /** JSON by default; a FormData is sent as multipart as it is. */
  body?: Input<T['body']> | FormData;
  signal?: AbortSignal;
}

export function readCookie(name: string): string | undefined {
  const hit = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return hit === undefined ? undefined : decodeURIComponent(hit.slice(name.length + 1));
}

/** The refresh-side calls prove the refresh token's csrf; every other call the access token's. */
function csrfFor(path: string): string | undefined {
  const refreshSide = path === authApi.refresh.path || path === authApi.logoutRefresh.path;
  return readCookie(refreshSide ? 'csrf_refresh_token' : 'csrf_access_token');
}

export function buildUrl(def: RouteDef, params?: object, query?: object): string {
  const path = fillPath(def.path, (params ?? {}) as Record<string, string | number>);
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) search.append(k, String(item));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

function send(def: RouteDef, url: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const csrf = csrfFor(def.path);
  if (csrf) headers['X-CSRF-TOKEN'] = csrf;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  return fetch(url, { method: def.method, headers, body: payload, credentials: 'same-origin', signal });
}

let refreshing: Promise<boolean> | null = null;

/**
 * Mints a new access token from the refresh cookie. Concurrent 401s share one refresh;
 * when it fails the user is signed out and sent to '/' (the login screen).
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= send(authApi.refresh, authApi.refresh.path, undefined)
    .then(async (res) => {
      // Read the answer to its end so the connection is released (unread bodies keep it busy).
      await res.arrayBuffer();
      return res.ok;
    })
    .catch(() => false)
    .then((ok) => {
      if (!ok) {
        session.signedOut();
        if (window.location.hash !== '#/') window.location.hash = '#/';
      }
      return ok;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

async function toApiError(res: Response): Promise<ApiError> {
  const statusText = res.statusText || `HTTP ${res.status}`;
  let detail = statusText;
  let code: ApiErrorCode = 'http_error';
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { detail?: unknown; code?: unknown };
    if (typeof body.detail === 'string') detail = body.detail;
    code = errorCode(body.code);
  } catch {
    // A non-JSON error (a proxy page, say): keep a short, readable piece of it.
    if (text.trim()) detail = text.trim().slice(0, 200);
  }
  return new ApiError(res.status, statusText, detail, code);
}

/**
 * Calls one endpoint and returns its raw Response (for downloads and streams).
 * A 401 on a guarded route refreshes the session once and retries.
 */
export async function apiRaw<T extends RouteDef>(def: T, opts: CallOptions<T> = {}): Promise<Response> {
  const url = buildUrl(def, opts.params as object | undefined, opts.query as object | undefined);
  let res: Response;
  try {
    res = await send(def, url, opts.body, opts.signal);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'Network Error', 'The server cannot be reached.', 'network_error');
  }
  if (res.status === 401 && !def.open) {
    await res.body?.cancel();
    if (await refreshSession()) res = await send(def, url, opts.body, opts.signal);
    else throw new ApiError(401, 'Unauthorized', 'Your session has ended; sign in again.', 'unauthorized');
  }
  if (!res.ok) throw await toApiError(res);
  return res;
}

/** Calls one endpoint of the contract and returns its typed JSON answer. */
export async function api<T extends RouteDef>(def: T, opts: CallOptions<T> = {}): Promise<RouteResponse<T>> {
  const res = await apiRaw(def, opts);
  if (res.status === 204) return undefined as RouteResponse<T>;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as RouteResponse<T>;
}

/** Downloads a file answer (support bundles, settings export) under the server's file name. */
export async function apiDownload<T extends RouteDef>(def: T, opts: CallOptions<T> = {}, fallbackName = 'download'): Promise<void> {
  const res = await apiRaw(def, opts);
  const disposition = res.headers.get('Content-Disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  const name = match?.[1] ? decodeURIComponent(match[1]) : fallbackName;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
