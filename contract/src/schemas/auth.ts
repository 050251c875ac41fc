import { z } from 'zod';
import { ROLES, defineRoute } from '../route';

/**
 * A cookie-signed-in browser cannot set a header on a WebSocket, so it offers its CSRF token as a
 * second subprotocol (terminal and other sockets): `csrf.<value of the csrf_access_token cookie>`.
 */
export const CSRF_PROTOCOL_PREFIX = 'csrf.';

export const LoginBody = z.strictObject({
  username: z.string().trim().min(1, 'Username is required.').max(264),
  password: z.string().min(1, 'Password is required.').max(1024),
});
export const Me = z.object({ username: z.string(), authDisabled: z.boolean() });
export type Me = z.infer<typeof Me>;

/** The start-up check in one open call: never a 401, so a signed-out start logs no error. */
export const AuthStatus = z.object({
  signedIn: z.boolean(),
  username: z.string().optional(),
  /** What the signed-in user may do (admin while authentication is disabled). */
  role: z.enum(ROLES).optional(),
  /** Whether the signed-in user has two-factor sign-in on. */
  totp_enabled: z.boolean().optional(),
  authDisabled: z.boolean(),
  /** Set when single sign-on is configured: the provider's name for the "Sign in with …" button. */
  oidc_name: z.string().optional(),
  /** False when only single sign-on may sign in (OIDC_ONLY). */
  password_login: z.boolean().optional(),
  /** Signed in with single sign-on configured: whether the account is linked to the provider. */
  oidc_linked: z.boolean().optional(),
  /** Not signed in, but a live refresh cookie can mint a new access token (POST /api/auth/refresh). */
  canRefresh: z.boolean(),
});
export type AuthStatus = z.infer<typeof AuthStatus>;

/**
 * Why a single sign-on ended without a session. The server's refusal redirects the browser to
 * `/?{OIDC_ERROR_PARAM}={code}` (a code only: never a token, claim or provider text in the URL) and
 * the login page words the code.
 */
export const OIDC_ERRORS = [
  /** The provider answered with an error (sign-in cancelled, consent refused, client misconfigured). */
  'provider_error',
  /** Its answer failed a check: state, nonce, PKCE, signature, or a refused code. */
  'refused',
  /** The flow cookie is missing: the sign-on began in another browser or cookies are blocked. */
  'flow_missing',
  /** The flow cookie is too old or not Berth's. */
  'flow_expired',
  /** The provider gave no verified email address for the account. */
  'email_unverified',
  /** The matching Berth account is disabled. */
  'account_disabled',
  /** The provider could not be reached. */
  'provider_unreachable',
  /** A Berth account with this email exists and is not linked: its owner links it from Account > Security. */
  'link_required',
  /** The provider's account is already linked to another Berth account. */
  'already_linked',
] as const;
export type OidcError = (typeof OIDC_ERRORS)[number];
/** The query parameter of the login page carrying an OidcError. */
export const OIDC_ERROR_PARAM = 'sso_error';

export const MIN_PASSWORD_LENGTH = 8;

/** Control characters (C0, DEL, C1): never part of a password one can type. */
const CONTROL_CHAR = /\p{Cc}/u;

/**
 * A new password, as web and server both check it: at least 8 characters (code points), not
 * only whitespace, no control characters.
 */
export const NewPassword = z
  .string()
  .max(1024, 'Password must be at most 1024 characters.')
  .refine((p) => [...p].length >= MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`)
  .refine((p) => p.trim() !== '', 'Password cannot be only spaces.')
  .refine((p) => !CONTROL_CHAR.test(p), 'Password cannot contain control characters.');

/** The acting user's current password, required for sensitive changes (re-authentication). */
export const CurrentPassword = z.string().max(1024);

/** The body of a sensitive action that has no other fields (self-update). */
export const ReauthBody = z.strictObject({ current_password: CurrentPassword.optional() });

export const ChangeAccountBody = z.strictObject({
  username: z.email('Must be a valid email.').max(264),
  /** Empty or absent keeps the current password. */
  password: z
    .string()
    .superRefine((p, ctx) => {
      if (p === '') return;
      for (const issue of NewPassword.safeParse(p).error?.issues ?? [])
        ctx.addIssue({ code: 'custom', message: issue.message });
    })
    .optional()
    .default(''),
  current_password: CurrentPassword.optional(),
  /** A new password revokes the user's API keys unless this is true. */
  keep_api_keys: z.boolean().optional().default(false),
});

export const ApiKey = z.object({
  id: z.number().int(),
  key_name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;
export const NewApiKey = ApiKey.extend({ token: z.string() });
export type NewApiKey = z.infer<typeof NewApiKey>;
export const NewApiKeyBody = z.strictObject({
  key_name: z.string().trim().min(1, 'Name is required.').max(255),
  current_password: CurrentPassword.optional(),
});
export const KeyIdParams = z.object({ id: z.coerce.number().int().positive() });
export const Message = z.object({ msg: z.string() });
/** With DISABLE_AUTH the page fetches this token and sends it as X-CSRF-TOKEN; null while auth is on (the session carries one). */
export const OpenCsrf = z.object({ csrf: z.string().nullable() });

/** The password was right and the account has TOTP on: no session yet, send a code with the challenge. */
export const TotpRequired = z.object({ totp_required: z.literal(true), challenge: z.string() });
export type TotpRequired = z.infer<typeof TotpRequired>;
export const LoginResult = z.union([Me, TotpRequired]);
export type LoginResult = z.infer<typeof LoginResult>;

export const TotpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'The code is 6 digits.');
export const RecoveryCode = z.string().trim().min(1).max(64);

/** Linking single sign-on to one's account: the current password, and a code (or a recovery code) when TOTP is on. */
export const OidcLinkBody = z.strictObject({
  current_password: CurrentPassword.optional(),
  totp_code: z.union([TotpCode, RecoveryCode]).optional(),
});
/** Where the browser goes next to sign in at the provider. */
export const OidcLinkStart = z.object({ url: z.string() });

/** The second step of a sign-in: the challenge and either a code from the app or a recovery code. */
export const LoginTotpBody = z
  .strictObject({
    challenge: z.string().min(1).max(2048),
    code: TotpCode.optional(),
    recovery_code: RecoveryCode.optional(),
  })
  .refine((b) => (b.code === undefined) !== (b.recovery_code === undefined), 'Send either code or recovery_code.');

export const TotpSetup = z.object({
  /** Base32, for typing into an authenticator app by hand. */
  secret: z.string(),
  otpauth_url: z.string(),
  /** The otpauth URL as a QR code: an SVG data URL. */
  qr: z.string(),
});
export type TotpSetup = z.infer<typeof TotpSetup>;
export const TotpEnableBody = z.strictObject({ code: TotpCode });
export const RecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;
/** Turning TOTP off needs the password and a current code (or a recovery code). */
export const TotpDisableBody = z.strictObject({ password: CurrentPassword, code: z.union([TotpCode, RecoveryCode]) });

/** A live sign-in session. */
export const Session = z.object({
  id: z.string(),
  user_id: z.number().int(),
  /** The browser's User-Agent when it signed in. */
  device: z.string().nullable(),
  address: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /** The session this request came with. */
  current: z.boolean(),
});
export type Session = z.infer<typeof Session>;
/** Admins may name another user; everyone else sees their own sessions. */
export const SessionsQuery = z.object({ user_id: z.coerce.number().int().positive().optional() });
export const SessionIdParams = z.object({ id: z.string().min(1).max(64) });

export const authApi = {
  login: defineRoute({
    method: 'POST',
    path: '/api/auth/login',
    scope: 'global',
    tag: 'auth',
    summary: 'Sign in; sets the session cookies, or asks for a TOTP code (no cookies then)',
    open: true,
    body: LoginBody,
    response: LoginResult,
  }),
  loginTotp: defineRoute({
    method: 'POST',
    path: '/api/auth/login/totp',
    scope: 'global',
    tag: 'auth',
    summary:
      'Second step of a sign-in with TOTP: the challenge and a code (or a recovery code); sets the session cookies',
    open: true,
    body: LoginTotpBody,
    response: Me,
  }),
  oidcLogin: defineRoute({
    method: 'GET',
    path: '/api/auth/oidc/login',
    scope: 'global',
    tag: 'auth',
    summary: 'Start single sign-on: redirects to the OpenID Connect provider',
    open: true,
    response: z.unknown().describe('302 redirect'),
  }),
  oidcCallback: defineRoute({
    method: 'GET',
    path: '/api/auth/oidc/callback',
    scope: 'global',
    tag: 'auth',
    summary:
      "The provider's redirect back: checks state, nonce and PKCE, signs in (the linked account, or a new one; an existing account by email only with OIDC_LINK_BY_EMAIL) and redirects to the app",
    open: true,
    response: z.unknown().describe('302 redirect'),
  }),
  oidcLink: defineRoute({
    method: 'POST',
    role: 'viewer',
    path: '/api/auth/oidc/link',
    scope: 'global',
    tag: 'auth',
    summary:
      "Link single sign-on to the signed-in account (current password, and a TOTP code when on): sets the flow cookie and answers the provider's URL to go to",
    body: OidcLinkBody,
    response: OidcLinkStart,
  }),
  totpSetup: defineRoute({
    method: 'POST',
    role: 'viewer',
    path: '/api/auth/totp/setup',
    scope: 'global',
    tag: 'auth',
    summary: 'Start TOTP setup: a new secret, its otpauth URL and QR code',
    response: TotpSetup,
  }),
  totpEnable: defineRoute({
    method: 'POST',
    role: 'viewer',
    path: '/api/auth/totp/enable',
    scope: 'global',
    tag: 'auth',
    summary: 'Turn TOTP on with a code from the app; returns 10 one-time recovery codes (shown once)',
    body: TotpEnableBody,
    response: RecoveryCodes,
  }),
  totpDisable: defineRoute({
    method: 'POST',
    role: 'viewer',
    path: '/api/auth/totp/disable',
    scope: 'global',
    tag: 'auth',
    summary: 'Turn TOTP off (password and a code)',
    body: TotpDisableBody,
    response: Message,
  }),
  sessions: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/auth/sessions',
    scope: 'global',
    tag: 'auth',
    summary: 'Live sessions of the signed-in user (admins: of any user, with user_id)',
    querystring: SessionsQuery,
    response: z.array(Session),
  }),
  endSession: defineRoute({
    method: 'DELETE',
    role: 'viewer',
    path: '/api/auth/sessions/{id}',
    scope: 'global',
    tag: 'auth',
    summary: "End a session (one's own; admins: anyone's)",
    params: SessionIdParams,
    response: Message,
  }),
  refresh: defineRoute({
    method: 'POST',
    path: '/api/auth/refresh',
    scope: 'global',
    tag: 'auth',
    summary: 'Mint a new access token from the refresh cookie (rotated)',
    open: true,
    response: Message,
  }),
  logout: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/auth/logout',
    scope: 'global',
    tag: 'auth',
    summary: 'Revoke the access session',
    audited: true,
    response: Message,
  }),
  logoutRefresh: defineRoute({
    method: 'GET',
    path: '/api/auth/logout/refresh',
    scope: 'global',
    tag: 'auth',
    summary: 'Revoke the refresh session and clear cookies',
    open: true,
    audited: true,
    response: Message,
  }),
  status: defineRoute({
    method: 'GET',
    path: '/api/auth/status',
    scope: 'global',
    tag: 'auth',
    summary:
      'Whether this browser is signed in (and as whom), whether auth is disabled, and whether a refresh would sign it in; open, never 401',
    open: true,
    response: AuthStatus,
  }),
  csrf: defineRoute({
    method: 'GET',
    path: '/api/auth/csrf',
    scope: 'global',
    tag: 'auth',
    summary: 'CSRF token for state changes while authentication is disabled',
    open: true,
    response: OpenCsrf,
  }),
  me: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/auth/me',
    scope: 'global',
    tag: 'auth',
    summary: 'Who is signed in',
    response: Me,
  }),
  changeMe: defineRoute({
    method: 'POST',
    role: 'viewer',
    path: '/api/auth/me',
    scope: 'global',
    tag: 'auth',
    summary: 'Change email and/or password of the signed-in user',
    body: ChangeAccountBody,
    response: Me,
  }),
  keys: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/auth/api/keys',
    scope: 'global',
    tag: 'auth',
    summary: 'API keys of the signed-in user',
    response: z.array(ApiKey),
  }),
  newKey: defineRoute({
    method: 'POST',
    role: 'viewer',
    path: '/api/auth/api/keys/new',
    scope: 'global',
    tag: 'auth',
    summary: 'Generate an API key (token shown once)',
    body: NewApiKeyBody,
    response: NewApiKey,
  }),
  revokeKey: defineRoute({
    method: 'DELETE',
    role: 'viewer',
    path: '/api/auth/api/keys/{id}',
    scope: 'global',
    tag: 'auth',
    summary: 'Revoke an API key',
    alsoMethods: ['GET', 'POST'],
    params: KeyIdParams,
    response: Message,
  }),
};
