import {
  authApi,
  CSRF_PROTOCOL_PREFIX,
  environmentPath,
  fillPath,
  type ErrorCode,
  type RouteDef,
  type RouteResponse,
} from '@berth/contract';
import { createParser } from 'eventsource-parser';
import type { z } from 'zod';
import { session } from './session';
import { saveFile } from './save-file';
import { xhrFetch } from './xhr-fetch';

/**
 * The one transport of the web app: every JSON call, server-sent event stream and download goes
 * through `apiFetch`, which sends the CSRF header, refreshes the session once on a 401 and retries
 * (signing out when the refresh fails), and turns a failed answer's `{detail, code}` into an ApiError.
 */

/** Codes the client itself gives: no answer, an answer that is not Berth's JSON, a stream cut short. */
export type ClientErrorCode = 'network_error' | 'http_error' | 'stream_ended';
/** A server code (the contract's ErrorCode) or one of the client's own. */
export type ApiErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode] | ClientErrorCode;

/** Any failed call. `detail` is the server's human text, `code` its machine code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly detail: string,
    readonly code: ApiErrorCode,
    /** The fields a 4xx names (`resources.memoryLimitBytes`, `mounts.0.target`), for forms to show on the field. */
    readonly fields: readonly { field: string; message: string }[] = [],
  ) {
    super(`${statusText}: ${detail}`);
    this.name = 'ApiError';
  }
}

export interface FetchInit {
  method?: string;
  /** JSON by default; a FormData is sent as multipart as it is, a Blob (a File) as octet-stream. */
  body?: unknown;
  /** The answer wanted: JSON unless said otherwise ('text/event-stream' for streams). */
  accept?: string;
  signal?: AbortSignal;
  cache?: RequestCache;
  /** An open route (no session needed): a 401 there is an answer, not an expired session. */
  open?: boolean;
  /** With a Blob or FormData body: told how many bytes went up (sent through XMLHttpRequest, see xhrFetch). */
  onUpload?: ((sent: number, total: number) => void) | undefined;
}

function readCookie(name: string): string | undefined {
  const hit = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return hit === undefined ? undefined : decodeURIComponent(hit.slice(name.length + 1));
}

/** The refresh-side calls prove the refresh token's csrf; every other call the access token's. */
function csrfFor(path: string): string | undefined {
  const refreshSide = path === authApi.refresh.path || path === authApi.logoutRefresh.path;
  return readCookie(refreshSide ? 'csrf_refresh_token' : 'csrf_access_token');
}

/**
 * Where a call goes: an environment route names its environment (`env`, required); a global
 * route acts on Berth itself and takes none.
 */
export type EnvOption<T extends RouteDef> = T['scope'] extends 'environment' ? { env: string } : { env?: undefined };

export type UrlOptions<T extends RouteDef> = EnvOption<T> & {
  params?: Input<T['params']>;
  query?: Input<T['querystring']>;
};

/** The URL of a call: an environment route's goes to its environment (`local`: the spec's own path). */
export function buildUrl<T extends RouteDef>(def: T, opts: UrlOptions<T>): string {
  const filled = fillPath(def.path, (opts.params ?? {}) as Record<string, string | number>);
  let path = filled;
  if (def.scope === 'environment') {
    const env = (opts as { env?: string }).env;
    if (env === undefined) throw new Error(`${def.path} acts on an environment: name it`);
    path = environmentPath(filled, env);
  }
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries((opts.query ?? {}) as object)) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) search.append(k, String(item));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

// --- DISABLE_AUTH: the CSRF token comes from an open endpoint (no session, so no csrf cookie). ---
let openCsrf: Promise<string | undefined> | null = null;

/** The token of GET /api/auth/csrf, fetched once; only asked for while the server has auth turned off. */
function openCsrfToken(): Promise<string | undefined> {
  openCsrf ??= fetch(authApi.csrf.path, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
    .then(async (res) => (res.ok ? (((await res.json()) as { csrf: string | null }).csrf ?? undefined) : undefined))
    .catch(() => undefined)
    .then((token) => {
      if (token === undefined) openCsrf = null; // try again on the next call
      return token;
    });
  return openCsrf;
}

async function csrfHeader(path: string, method: string): Promise<string | undefined> {
  const fromCookie = csrfFor(path);
  if (fromCookie || !session.get().authDisabled) return fromCookie;
  return method !== 'GET' ? openCsrfToken() : undefined;
}
// --- end DISABLE_AUTH ---

/**
 * Opens a WebSocket to a contract route (in its environment). A browser cannot set a
 * header on it, so the CSRF token (an upgrade counts as a state change) travels as the
 * `csrf.<token>` subprotocol beside `protocol`; never in the URL.
 */
export async function openSocket<T extends RouteDef>(
  def: T,
  opts: UrlOptions<T> & { protocol: string },
): Promise<WebSocket> {
  const url = new URL(buildUrl(def, opts), window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  let csrf = await csrfHeader(def.path, 'POST');
  // The csrf cookie lives as long as the access token: without it the session needs refreshing first.
  if (!csrf && !session.get().authDisabled && (await refreshSession())) csrf = await csrfHeader(def.path, 'POST');
  const socket = new WebSocket(url, csrf ? [opts.protocol, `${CSRF_PROTOCOL_PREFIX}${csrf}`] : [opts.protocol]);
  socket.binaryType = 'arraybuffer';
  return socket;
}

async function send(url: string, init: FetchInit): Promise<Response> {
  const headers: Record<string, string> = { Accept: init.accept ?? 'application/json' };
  const csrf = await csrfHeader(url.split('?')[0]!, init.method ?? 'GET');
  if (csrf) headers['X-CSRF-TOKEN'] = csrf;
  let payload: BodyInit | undefined;
  if (init.body instanceof FormData) payload = init.body;
  else if (init.body instanceof Blob) {
    // A file sent as the body itself (uploads the server streams through).
    headers['Content-Type'] = 'application/octet-stream';
    payload = init.body;
  } else if (init.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(init.body);
  }
  try {
    if (init.onUpload && (payload instanceof Blob || payload instanceof FormData))
      return await xhrFetch(
        url,
        { method: init.method ?? 'GET', headers, body: payload, signal: init.signal },
        init.onUpload,
      );
    return await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: payload,
      credentials: 'same-origin',
      signal: init.signal,
      cache: init.cache,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'Network Error', 'The server cannot be reached.', 'network_error');
  }
}

let refreshing: Promise<boolean> | null = null;

/**
 * Mints a new access token from the refresh cookie. Concurrent 401s share one refresh;
 * when it fails the user is signed out and sent to '/' (the login screen).
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= send(authApi.refresh.path, { method: authApi.refresh.method })
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
  let fields: { field: string; message: string }[] = [];
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { detail?: unknown; code?: unknown; fields?: unknown };
    if (typeof body.detail === 'string') detail = body.detail;
    if (typeof body.code === 'string') code = body.code as ApiErrorCode;
    if (Array.isArray(body.fields)) fields = body.fields as typeof fields;
  } catch {
    // A non-JSON error (a proxy page, say): keep a short, readable piece of it.
    if (text.trim()) detail = text.trim().slice(0, 200);
  }
  return new ApiError(res.status, statusText, detail, code, fields);
}

/**
 * Sends one request and returns its successful Response (JSON, a stream or a file).
 * A 401 refreshes the session once and retries; a failure throws an ApiError.
 */
export async function apiFetch(url: string, init: FetchInit = {}): Promise<Response> {
  let res = await send(url, init);
  if (res.status === 401 && !init.open) {
    await res.body?.cancel();
    if (await refreshSession()) res = await send(url, init);
    else throw new ApiError(401, 'Unauthorized', 'Your session has ended; sign in again.', 'unauthorized');
  }
  if (!res.ok) throw await toApiError(res);
  return res;
}

type Input<S> = S extends z.ZodType ? z.input<S> : never;

export type CallOptions<T extends RouteDef> = UrlOptions<T> & {
  /** JSON by default; a FormData is sent as multipart as it is. */
  body?: Input<T['body']> | FormData;
  signal?: AbortSignal;
  accept?: string;
  /** With a file (or a form holding one) as the body: told how many bytes went up. */
  onUpload?: (sent: number, total: number) => void;
};

/** The options of a call: required (its `env`) for an environment route, optional for a global one. */
export type CallArgs<T extends RouteDef> = T['scope'] extends 'environment'
  ? [opts: CallOptions<T>]
  : [opts?: CallOptions<T>];

/** Calls one endpoint of the contract and returns its raw Response (downloads, streams). */
export function apiRaw<T extends RouteDef>(def: T, ...[opts]: CallArgs<T>): Promise<Response> {
  const o = (opts ?? {}) as CallOptions<T>;
  const url = buildUrl(def, o);
  return apiFetch(url, {
    method: def.method,
    body: o.body,
    signal: o.signal,
    accept: o.accept,
    open: def.open,
    onUpload: o.onUpload,
  });
}

/** Calls one endpoint of the contract and returns its typed JSON answer. */
export async function api<T extends RouteDef>(def: T, ...args: CallArgs<T>): Promise<RouteResponse<T>> {
  const res = await apiRaw(def, ...args);
  if (res.status === 204) return undefined as RouteResponse<T>;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as RouteResponse<T>;
}

/** One server-sent event; `event` is 'message' when the server named none. */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * Reads a text/event-stream answer as batches of messages, one batch per network chunk, to its
 * end. A chunk of a flooding stream holds hundreds of events: handing them over together costs one
 * wake-up instead of hundreds, and while the page is busy the next chunk is simply read later, so
 * the server's back-pressure slows the stream instead of the page. Leaving the loop early (break,
 * return, throw) cancels the answer.
 */
export async function* readEvents(res: Response): AsyncGenerator<SseMessage[]> {
  if (!res.body) return;
  let batch: SseMessage[] = [];
  // Comments (the server's pings) and unknown fields are skipped by the parser.
  const parser = createParser({ onEvent: (m) => batch.push({ event: m.event ?? 'message', data: m.data }) });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      parser.feed(next.value);
      if (batch.length === 0) continue;
      const full = batch;
      batch = [];
      yield full;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Opens a server-sent event stream (GET) through the client; the messages come from readEvents. */
export async function openEvents(url: string, signal: AbortSignal): Promise<AsyncGenerator<SseMessage[]>> {
  const res = await apiFetch(url, { accept: 'text/event-stream', cache: 'no-store', signal });
  return readEvents(res);
}

/** Downloads a file answer (support bundles, settings export) under the server's file name. */
export async function apiDownload<T extends RouteDef>(
  def: T,
  opts: CallOptions<T>,
  fallbackName = 'download',
): Promise<void> {
  const res = await apiRaw(def, ...([opts] as CallArgs<T>));
  const disposition = res.headers.get('Content-Disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  const name = match?.[1] ? decodeURIComponent(match[1]) : fallbackName;
  saveFile(await res.blob(), name);
}
