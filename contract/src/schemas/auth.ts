import { z } from 'zod';
import { defineRoute } from '../route';

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
  authDisabled: z.boolean(),
  /** Not signed in, but a live refresh cookie can mint a new access token (POST /api/auth/refresh). */
  canRefresh: z.boolean(),
});
export type AuthStatus = z.infer<typeof AuthStatus>;

export const MIN_PASSWORD_LENGTH = 8;

export const ChangeAccountBody = z.strictObject({
  username: z.email('Must be a valid email.').max(264),
  /** Empty or absent keeps the current password. */
  password: z
    .string()
    .max(1024, 'Password must be at most 1024 characters.')
    .refine((p) => p === '' || [...p].length >= MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`)
    .optional()
    .default(''),
});

export const ApiKey = z.object({ id: z.number().int(), key_name: z.string(), created_at: z.string(), last_used_at: z.string().nullable() });
export type ApiKey = z.infer<typeof ApiKey>;
export const NewApiKey = ApiKey.extend({ token: z.string() });
export type NewApiKey = z.infer<typeof NewApiKey>;
export const NewApiKeyBody = z.strictObject({ key_name: z.string().trim().min(1, 'Name is required.').max(255) });
export const KeyIdParams = z.object({ id: z.coerce.number().int().positive() });
export const Message = z.object({ msg: z.string() });

export const authApi = {
  login: defineRoute({ method: 'POST', path: '/api/auth/login', summary: 'Sign in; sets the session cookies', open: true, body: LoginBody, response: Me }),
  refresh: defineRoute({ method: 'POST', path: '/api/auth/refresh', summary: 'Mint a new access token from the refresh cookie (rotated)', open: true, response: Message }),
  logout: defineRoute({ method: 'GET', path: '/api/auth/logout', summary: 'Revoke the access session', response: Message }),
  logoutRefresh: defineRoute({ method: 'GET', path: '/api/auth/logout/refresh', summary: 'Revoke the refresh session and clear cookies', open: true, response: Message }),
  status: defineRoute({
    method: 'GET',
    path: '/api/auth/status',
    summary: 'Whether this browser is signed in (and as whom), whether auth is disabled, and whether a refresh would sign it in; open, never 401',
    open: true,
    response: AuthStatus,
  }),
  me: defineRoute({ method: 'GET', path: '/api/auth/me', summary: 'Who is signed in', response: Me }),
  changeMe: defineRoute({ method: 'POST', path: '/api/auth/me', summary: 'Change email and/or password of the signed-in user', body: ChangeAccountBody, response: Me }),
  keys: defineRoute({ method: 'GET', path: '/api/auth/api/keys', summary: 'API keys of the signed-in user', response: z.array(ApiKey) }),
  newKey: defineRoute({ method: 'POST', path: '/api/auth/api/keys/new', summary: 'Generate an API key (token shown once)', body: NewApiKeyBody, response: NewApiKey }),
  revokeKey: defineRoute({ method: 'DELETE', path: '/api/auth/api/keys/{id}', summary: 'Revoke an API key', alsoMethods: ['GET', 'POST'], params: KeyIdParams, response: Message }),
};
