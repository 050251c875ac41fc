import { ErrorCode, type Role } from '@berth/contract';
import { AppError } from '../../errors';

/** Who a request acts as. Every non-open /api request has one (see plugins/auth.ts). */
export interface Principal {
  userId: number;
  /** The user's email (the spec calls it username). */
  username: string;
  /** The user's role, read with the session or key on every request, so a change applies at once. */
  role: Role;
  via: 'session' | 'api_key' | 'disabled';
  /** Set when via is 'session'. */
  sessionId?: string;
  /** The API key's name, when via is 'api_key' (for the audit log). */
  keyName?: string;
  /** The API key's id, when via is 'api_key' (its streams end when it is revoked). */
  keyId?: number;
}

/** The name shown for everyone while DISABLE_AUTH=true. */
export const DISABLED_USERNAME = 'admin';

export class AuthDisabledError extends AppError {
  constructor(what: string) {
    super(
      ErrorCode.authDisabled,
      `${what} is not available: authentication is turned off on this server (DISABLE_AUTH=true).`,
    );
  }
}
