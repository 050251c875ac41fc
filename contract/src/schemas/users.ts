import { z } from 'zod';
import { ROLES, defineRoute } from '../route';
import { CurrentPassword, Message, NewPassword, RecoveryCode, TotpCode } from './auth';

export const RoleSchema = z.enum(ROLES);

/** An account as admins see it; never its password hash or TOTP secret. */
export const User = z.object({
  id: z.number().int(),
  email: z.string(),
  role: RoleSchema,
  disabled: z.boolean(),
  totp_enabled: z.boolean(),
  created_at: z.string(),
});
export type User = z.infer<typeof User>;

/**
 * What an admin confirms a change to accounts with (from a signed-in session, never an API key):
 * their own current password, and a code from their authenticator app (or a recovery code)
 * when their own TOTP is on. Optional in the schema so a missing one is a 403 reauth_failed that says what to send.
 */
export const AdminReauth = {
  current_password: CurrentPassword.optional(),
  totp_code: z.union([TotpCode, RecoveryCode]).optional(),
};
export const AdminReauthBody = z.strictObject(AdminReauth);

export const NewUserBody = z.strictObject({
  email: z.email('Must be a valid email.').max(264),
  password: NewPassword,
  role: RoleSchema,
  ...AdminReauth,
});

/**
 * Only the fields given change; a new password ends the user's sessions and revokes their API
 * keys. One's own password and role are not changed here (see PATCH /api/auth/me).
 */
export const UpdateUserBody = z.strictObject({
  role: RoleSchema.optional(),
  disabled: z.boolean().optional(),
  password: NewPassword.optional(),
  ...AdminReauth,
});

export const UserIdParams = z.object({ id: z.coerce.number().int().positive() });

export const usersApi = {
  list: defineRoute({
    method: 'GET',
    role: 'admin',
    path: '/api/users',
    scope: 'global',
    tag: 'users',
    summary: 'Every account with its role',
    response: z.array(User),
  }),
  create: defineRoute({
    method: 'POST',
    role: 'admin',
    path: '/api/users',
    scope: 'global',
    tag: 'users',
    summary: 'Add an account',
    body: NewUserBody,
    response: User,
  }),
  update: defineRoute({
    method: 'PATCH',
    role: 'admin',
    path: '/api/users/{id}',
    scope: 'global',
    tag: 'users',
    summary: 'Change the role of an account, disable or enable it, or reset its password',
    params: UserIdParams,
    body: UpdateUserBody,
    response: User,
  }),
  endSessions: defineRoute({
    method: 'DELETE',
    role: 'admin',
    path: '/api/users/{id}/sessions',
    scope: 'global',
    tag: 'users',
    summary: 'End every session of an account (its API keys stay)',
    params: UserIdParams,
    response: Message,
  }),
  remove: defineRoute({
    method: 'DELETE',
    role: 'admin',
    path: '/api/users/{id}',
    scope: 'global',
    tag: 'users',
    summary: 'Delete an account (not the last admin); the body confirms with the current password',
    params: UserIdParams,
    // Optional so a DELETE without a body is a 403 that says what to send, not a 400 about the body.
    body: AdminReauthBody.nullish(),
    response: Message,
  }),
};
