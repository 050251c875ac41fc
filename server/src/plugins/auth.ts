import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_PROTOCOL_PREFIX, roleAllows, seesEnvValues } from '@berth/contract';
import type { AppContext } from '../context';
import { CrossSiteError, ForbiddenError, UnauthorizedError } from '../errors';
import { ApiKeyService } from '../services/auth/api-keys';
import type { AuthService, Device, Principal, SessionTokens } from '../services/auth';
import { DISABLED_USERNAME } from '../services/auth/principal';
import { assertCsrf } from '../services/auth/tokens';

declare module 'fastify' {
  interface FastifyInstance {
    /** The auth use cases, for routes outside routes/auth.ts that need re-authentication. */
    berthAuth: AuthService;
  }
  interface FastifyRequest {
    /** Who the request acts as; null only on open routes and outside /api. */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Set for routes that change state, including GET aliases; cookie auth then needs the CSRF header. */
    csrf?: boolean;
    /** A WebSocket route: treated as a state change; its CSRF token comes as a `csrf.<token>` subprotocol. */
    upgrade?: boolean;
  }
}

export const COOKIES = {
  access: 'access_token_cookie',
  csrfAccess: 'csrf_access_token',
  refresh: 'refresh_token_cookie',
  csrfRefresh: 'csrf_refresh_token',
} as const;

const READ_METHODS = new Set(['GET', 'HEAD']);
// Without accounts everyone who reaches the port is in control: the proxy in front decides who may.
const DISABLED_PRINCIPAL: Principal = { userId: 0, username: DISABLED_USERNAME, role: 'admin', via: 'disabled' };

/**
 * Authentication for everything under /api: ONE global onRequest hook that denies by default.
 * Only routes whose contract says `open: true` skip it; unknown /api paths are refused (401)
 * before they can 404. Then the principal's role must reach the route's `role` from the contract
 * (403 forbidden otherwise); an /api route that declares no role is refused to everyone. Credentials come from `Authorization: Bearer` (an API key or an access
 * JWT) or else the access cookie; never from the query string. Cookie-authenticated requests
 * that can change state need X-CSRF-TOKEN equal to the token's csrf claim.
 *
 * Every state change (auth on or off, open routes too) is refused when the browser says it
 * comes from another site (Origin, Sec-Fetch-Site). With DISABLE_AUTH there is no session, so
 * a state change also needs the X-CSRF-TOKEN handed out by the open GET /api/auth/csrf.
 */
export function registerAuth(app: FastifyInstance, ctx: AppContext, auth: AuthService): void {
  if (ctx.config.disableAuth) {
    ctx.log.warn(
      'AUTHENTICATION IS DISABLED (DISABLE_AUTH=true): anyone who can reach this port controls the Docker host. Only use this behind a proxy that authenticates.',
    );
  }
  app.decorate('berthAuth', auth);
  app.decorateRequest('principal', null);
  markStateChangingRoutes(app);
  app.addHook('onRequest', async (req) => {
    const routeUrl = req.routeOptions.url;
    const apiRoute = routeUrl !== undefined && isApiPath(routeUrl);
    if (!apiRoute && !isApiPath(req.url.split('?')[0] ?? '')) return;
    const changesState = changesStateOf(req);
    if (changesState) assertSameOrigin(req);
    // `open` counts only on real /api routes: the web app's catch-all is open but must not open /api.
    if (apiRoute && req.routeOptions.config.open === true) return;
    if (!ctx.config.disableAuth) {
      req.principal = await authenticate(req, auth);
    } else {
      if (changesState && !auth.checkOpenCsrf(sentCsrf(req))) {
        throw new CrossSiteError(
          'Missing or wrong CSRF token: authentication is disabled, so send X-CSRF-TOKEN (on a WebSocket: the csrf.<token> subprotocol) with the token from GET /api/auth/csrf.',
        );
      }
      req.principal = DISABLED_PRINCIPAL;
    }
    if (apiRoute) assertRole(req, req.principal);
  });
}

/** Deny by default: a route without a role is refused, like one above the principal's role. */
function assertRole(req: FastifyRequest, principal: Principal): void {
  const need = req.routeOptions.config.role;
  if (need === undefined) throw new ForbiddenError('This endpoint declares no role, so nobody may call it.');
  if (!roleAllows(principal.role, need)) {
    throw new ForbiddenError(
      `Not allowed: this needs the ${need} role and your account is ${principal.role === 'viewer' ? 'a' : 'an'} ${principal.role}. Ask an admin.`,
    );
  }
}

/** Where a request comes from, for the sessions list. */
export function deviceOf(req: FastifyRequest): Device & { ip: string } {
  return { userAgent: req.headers['user-agent'] ?? null, ip: req.ip };
}

/**
 * Refuses a request a browser marks as coming from another site: Sec-Fetch-Site other than
 * same-origin (or none: typed by the user), or an Origin that is not this server's own.
 * Clients that send neither (curl, scripts) are judged by their credentials alone.
 */
function assertSameOrigin(req: FastifyRequest): void {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new CrossSiteError(`Refused a ${site} request: state changes must come from Berth's own pages.`);
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !sameHost(origin, req.host)) {
    throw new CrossSiteError(
      `Refused a request from origin ${origin.slice(0, 100)}: state changes must come from Berth's own pages. Behind a proxy, pass the original Host header on.`,
    );
  }
}

/** Whether an Origin names the host (and port) of this request's Host; a missing port is the scheme's default. */
function sameHost(origin: string, host: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  const parsed = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.toLowerCase());
  if (!parsed || url.hostname.toLowerCase() !== parsed[1]) return false;
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  return (url.port || defaultPort) === (parsed[2] ?? (url.port || defaultPort));
}

/**
 * Re-authentication for a sensitive change (current password of the acting user); a no-op
 * with DISABLE_AUTH. Throws ReauthFailedError (403 reauth_failed) when missing or wrong.
 */
export async function requireReauth(req: FastifyRequest, currentPassword: string | undefined): Promise<void> {
  await req.server.berthAuth.reauthenticate(requirePrincipal(req), currentPassword, req.ip);
}

async function authenticate(req: FastifyRequest, auth: AuthService): Promise<Principal> {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const token = /^Bearer +(\S+)$/i.exec(header.trim())?.[1];
    if (!token) throw new UnauthorizedError('Malformed Authorization header; expected "Bearer <token>".');
    // A header credential cannot be sent by another site's page, so it needs no CSRF token.
    return ApiKeyService.looksLikeKey(token)
      ? auth.apiKeys.authenticate(token)
      : (await auth.sessions.authenticate(token)).principal;
  }
  const cookie = req.cookies[COOKIES.access];
  if (!cookie) throw new UnauthorizedError('Not signed in.');
  const { principal, csrf } = await auth.sessions.authenticate(cookie);
  if (changesStateOf(req)) assertCsrf(sentCsrf(req), csrf);
  return principal;
}

/** Paths behind the auth hook: the API and the Prometheus endpoint (scraped with an API key as Bearer token). */
const isApiPath = (p: string) => p === '/api' || p.startsWith('/api/') || p === '/metrics';
/**
 * Routes that change state (actions, GET aliases) and WebSocket upgrades (a terminal can do
 * anything) need the same-origin check and, with a cookie, the CSRF token.
 */
function changesStateOf(req: FastifyRequest): boolean {
  const config = req.routeOptions.config;
  return config.csrf === true || config.upgrade === true || !READ_METHODS.has(req.method);
}

/**
 * The CSRF token a request carries: the X-CSRF-TOKEN header, or on a WebSocket upgrade (a
 * browser cannot set headers there) the `csrf.<token>` subprotocol it offers. Never the query.
 */
function sentCsrf(req: FastifyRequest): string | undefined {
  if (req.headers.upgrade?.toLowerCase() !== 'websocket') return req.headers['x-csrf-token'] as string | undefined;
  const offered = String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim());
  return offered.find((p) => p.startsWith(CSRF_PROTOCOL_PREFIX))?.slice(CSRF_PROTOCOL_PREFIX.length);
}

/**
 * Marks routes that change state: any route registered with a method other than GET/HEAD. A
 * GET registered together with POST or DELETE is the alias of an action (the spec documents
 * some actions as GET), so the whole route is marked. Fastify adds a HEAD twin to every GET
 * route and runs the GET handler for it, so the twin of a GET alias is marked too.
 */
function markStateChangingRoutes(app: FastifyInstance): void {
  const aliasedGets = new Set<string>();
  app.addHook('onRoute', (opts) => {
    const methods = Array.isArray(opts.method) ? opts.method : [opts.method];
    // GET plus HEAD is still a read (static files register both).
    const changesState = methods.some((m) => !READ_METHODS.has(m));
    if (changesState && methods.includes('GET')) aliasedGets.add(opts.url);
    if (changesState || (methods.length === 1 && methods[0] === 'HEAD' && aliasedGets.has(opts.url))) {
      opts.config = { ...opts.config, csrf: true };
    }
  });
}

/** The signed-in principal; the hook guarantees one on every non-open /api route. */
export function requirePrincipal(req: FastifyRequest): Principal {
  if (!req.principal) throw new UnauthorizedError('Not signed in.');
  return req.principal;
}

/**
 * `value` as the request's principal may read it: as is for operators and admins, through `mask`
 * (environment values hidden, see services/auth/env-visibility) for a viewer.
 */
export function envShownTo<T>(req: FastifyRequest, value: T, mask: (v: T) => T): T {
  return seesEnvValues(requirePrincipal(req).role) ? value : mask(value);
}

function cookieBase(req: FastifyRequest) {
  return { path: '/', sameSite: 'strict', secure: req.protocol === 'https' } as const;
}

export function setSessionCookies(req: FastifyRequest, reply: FastifyReply, { access, refresh }: SessionTokens): void {
  const base = cookieBase(req);
  reply.setCookie(COOKIES.access, access.token, { ...base, httpOnly: true, maxAge: access.maxAgeSeconds });
  reply.setCookie(COOKIES.csrfAccess, access.csrf, { ...base, httpOnly: false, maxAge: access.maxAgeSeconds });
  reply.setCookie(COOKIES.refresh, refresh.token, { ...base, httpOnly: true, maxAge: refresh.maxAgeSeconds });
  reply.setCookie(COOKIES.csrfRefresh, refresh.csrf, { ...base, httpOnly: false, maxAge: refresh.maxAgeSeconds });
}

export function clearSessionCookies(req: FastifyRequest, reply: FastifyReply, which: 'access' | 'all' = 'all'): void {
  const base = cookieBase(req);
  reply.clearCookie(COOKIES.access, { ...base, httpOnly: true });
  reply.clearCookie(COOKIES.csrfAccess, base);
  if (which === 'access') return;
  reply.clearCookie(COOKIES.refresh, { ...base, httpOnly: true });
  reply.clearCookie(COOKIES.csrfRefresh, base);
}
