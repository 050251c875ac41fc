import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authApi, OIDC_ERROR_PARAM, type OidcError } from '@berth/contract';
import type { Services } from '../app-services';
import { OidcSignInError, UnauthorizedError, UpstreamError } from '../errors';
import { route } from '../lib/route';
import { COOKIES, clearSessionCookies, deviceOf, requirePrincipal, setSessionCookies } from '../plugins/auth';
import type { AuthService } from '../services/auth';
import { FLOW_SECONDS, requireOidc, type OidcService } from '../services/auth/oidc';
import { AuthDisabledError, DISABLED_USERNAME } from '../services/auth/principal';

const OIDC_FLOW_COOKIE = 'berth_oidc_flow';
const OIDC_COOKIE_PATH = '/api/auth/oidc';

/**
 * A browser on a single sign-on step is a page load, not a fetch: a refusal sends it back to the
 * login page with a code the page words (the detail stays in the log), never to a JSON page. Other
 * errors (not configured, auth disabled, a fault) keep their JSON answer.
 */
function ssoFailure(req: FastifyRequest, reply: FastifyReply, err: unknown) {
  let code: OidcError;
  if (err instanceof OidcSignInError) code = err.reason;
  else if (err instanceof UpstreamError) code = 'provider_unreachable';
  else throw err;
  req.log.warn({ code, detail: err.message }, 'single sign-on refused');
  return reply.redirect(`/?${OIDC_ERROR_PARAM}=${code}`, 302);
}

/** Keeps the signed flow (PKCE verifier, state, nonce, link) until the provider's redirect back. */
function setFlowCookie(req: FastifyRequest, reply: FastifyReply, flow: string): void {
  // Lax, not Strict: the provider's redirect back is a cross-site top-level navigation.
  reply.setCookie(OIDC_FLOW_COOKIE, flow, {
    path: OIDC_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    maxAge: FLOW_SECONDS,
  });
}

export function authRoutes(app: FastifyInstance, { auth }: Services): void {
  route(app, authApi.login, async (req, reply) => {
    const result = await auth.login(req.body.username, req.body.password, deviceOf(req));
    if ('challenge' in result) return { totp_required: true as const, challenge: result.challenge };
    setSessionCookies(req, reply, result.tokens);
    return { username: result.username, authDisabled: false };
  });

  route(app, authApi.loginTotp, async (req, reply) => {
    const { challenge, ...factor } = req.body;
    const { username, tokens } = await auth.loginTotp(challenge, factor, deviceOf(req));
    setSessionCookies(req, reply, tokens);
    return { username, authDisabled: false };
  });

  route(app, authApi.totpSetup, (req) => auth.totpSetup(requirePrincipal(req)));
  route(app, authApi.totpEnable, async (req) => ({
    recovery_codes: await auth.totpEnable(requirePrincipal(req), req.body.code, req.ip),
  }));
  route(app, authApi.totpDisable, async (req) => {
    await auth.totpDisable(requirePrincipal(req), req.body.password, req.body.code, req.ip);
    return { msg: 'TOTP is off.' };
  });

  route(app, authApi.sessions, (req) => auth.listSessions(requirePrincipal(req), req.query.user_id));
  route(app, authApi.endSession, (req) => {
    auth.endSession(requirePrincipal(req), req.params.id);
    return { msg: 'Session ended.' };
  });

  route(app, authApi.refresh, async (req, reply) => {
    if (auth.disabled) throw new AuthDisabledError('Refreshing a session');
    const token = req.cookies[COOKIES.refresh];
    if (!token) throw new UnauthorizedError('Not signed in: the refresh cookie is missing.');
    setSessionCookies(req, reply, await auth.sessions.refresh(token, req.headers['x-csrf-token']));
    return { msg: 'Session refreshed.' };
  });

  route(app, authApi.logout, async (req, reply) => {
    const { sessionId } = requirePrincipal(req);
    if (sessionId) auth.sessions.end(sessionId);
    clearSessionCookies(req, reply, 'access');
    return { msg: 'Signed out.' };
  });

  // Open, so it also works once the access token has expired: the refresh cookie says which session to end.
  route(app, authApi.logoutRefresh, async (req, reply) => {
    const token = req.cookies[COOKIES.refresh];
    if (token) await auth.sessions.endByRefreshToken(token);
    clearSessionCookies(req, reply);
    return { msg: 'Signed out.' };
  });

  route(app, authApi.status, async (req) => {
    if (auth.disabled)
      return {
        signedIn: true,
        username: DISABLED_USERNAME,
        role: 'admin' as const,
        authDisabled: true,
        canRefresh: false,
      };
    const principal = await auth.sessions.peek(req.cookies[COOKIES.access]);
    if (principal) {
      const user = auth.users.find(principal.userId);
      return {
        signedIn: true,
        username: principal.username,
        role: principal.role,
        totp_enabled: user?.totp_enabled_at != null,
        ...(auth.oidc ? { oidc_name: auth.oidc.config.name, oidc_linked: user?.oidc_subject != null } : {}),
        authDisabled: false,
        canRefresh: false,
      };
    }
    const refresh = req.cookies[COOKIES.refresh];
    // The login page's choices: single sign-on, and whether the password form is there.
    const oidc = auth.oidc ? { oidc_name: auth.oidc.config.name, password_login: !auth.oidc.config.only } : {};
    return {
      signedIn: false,
      authDisabled: false,
      canRefresh: refresh ? await auth.sessions.canRefresh(refresh) : false,
      ...oidc,
    };
  });

  route(app, authApi.oidcLogin, async (req, reply) => {
    let started: Awaited<ReturnType<OidcService['start']>>;
    try {
      started = await requireOidc(auth.oidc).start();
    } catch (err) {
      return ssoFailure(req, reply, err);
    }
    setFlowCookie(req, reply, started.flow);
    return reply.redirect(started.url, 302);
  });

  // A fetch (JSON errors: a wrong password is said in the dialog); the page then goes to the provider.
  route(app, authApi.oidcLink, async (req, reply) => {
    const { url, flow } = await auth.startOidcLink(requirePrincipal(req), req.body, req.ip);
    setFlowCookie(req, reply, flow);
    return { url };
  });

  route(app, authApi.oidcCallback, async (req, reply) => {
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    reply.clearCookie(OIDC_FLOW_COOKIE, { path: OIDC_COOKIE_PATH });
    let linked: boolean;
    try {
      const done = await auth.loginOidc(req.cookies[OIDC_FLOW_COOKIE], query, deviceOf(req));
      setSessionCookies(req, reply, done.tokens);
      linked = done.linked;
    } catch (err) {
      return ssoFailure(req, reply, err);
    }
    return reply.redirect(linked ? '/#/user/security' : '/', 302);
  });

  route(app, authApi.me, async (req) => {
    const p = requirePrincipal(req);
    return p.via === 'disabled'
      ? { username: DISABLED_USERNAME, authDisabled: true }
      : { username: p.username, authDisabled: false };
  });

  route(app, authApi.csrf, () => ({ csrf: auth.openCsrfToken() }));

  route(app, authApi.changeMe, async (req, reply) => {
    const { username, password, current_password: currentPassword, keep_api_keys: keepApiKeys } = req.body;
    const { username: email, tokens } = await auth.changeAccount(
      requirePrincipal(req),
      { email: username, password, currentPassword, keepApiKeys },
      deviceOf(req),
    );
    if (tokens) setSessionCookies(req, reply, tokens);
    return { username: email, authDisabled: false };
  });

  route(app, authApi.keys, async (req) => auth.apiKeys.list(accountOf(auth, req, 'Listing API keys')));

  route(app, authApi.newKey, async (req) =>
    auth.createApiKey(requirePrincipal(req), req.body.key_name, req.body.current_password, req.ip),
  );

  route(app, authApi.revokeKey, async (req) => {
    auth.apiKeys.revoke(accountOf(auth, req, 'Revoking an API key'), req.params.id);
    return { msg: `API key ${req.params.id} revoked.` };
  });
}

/** The signed-in user's id, for endpoints that need a real account (not DISABLE_AUTH). */
function accountOf(auth: AuthService, req: Parameters<typeof requirePrincipal>[0], what: string): number {
  const principal = requirePrincipal(req);
  auth.assertAccount(principal, what);
  return principal.userId;
}
