import type { AppContext } from '../../context';
import { ApiKeysRepo } from '../../db/api-keys-repo';
import { SessionsRepo } from '../../db/sessions-repo';
import { UsersRepo } from '../../db/users-repo';
import { UnauthorizedError } from '../../errors';
import { ApiKeyService } from './api-keys';
import { PasswordHasher } from './passwords';
import { AuthDisabledError, type Principal } from './principal';
import { SessionService, type SessionTokens } from './sessions';
import { LoginThrottle } from './throttle';
import { TokenSigner, loadSigningKey } from './tokens';
import { UserService } from './users';

export type { Principal } from './principal';
export type { SessionTokens } from './sessions';

const INVALID_LOGIN = 'Invalid username or password.';

/** The auth use cases, built once per app. */
export class AuthService {
  constructor(
    readonly disabled: boolean,
    readonly users: UserService,
    readonly sessions: SessionService,
    readonly apiKeys: ApiKeyService,
    private readonly throttle: LoginThrottle,
  ) {}

  /** Same answer for an unknown user and a wrong password; throttled per client. */
  async login(username: string, password: string, ip: string): Promise<{ username: string; tokens: SessionTokens }> {
    if (this.disabled) throw new AuthDisabledError('Signing in');
    const user = await this.throttle.attempt(ip, username, () => this.users.verifyCredentials(username, password));
    if (!user) throw new UnauthorizedError(INVALID_LOGIN);
    return { username: user.email, tokens: await this.sessions.start(user.id) };
  }

  /**
   * Changes the signed-in user's email and/or password. A new password ends every session of
   * the user (the caller's too); when the caller signed in with a session, a fresh one is
   * returned so they stay signed in. API keys keep working: they are revoked one by one.
   */
  async changeAccount(principal: Principal, email: string, password: string): Promise<{ username: string; tokens: SessionTokens | null }> {
    this.assertAccount(principal, 'Changing the account');
    const { email: username, passwordChanged } = await this.users.changeAccount(principal.userId, email, password);
    if (!passwordChanged) return { username, tokens: null };
    this.sessions.endAllForUser(principal.userId);
    return { username, tokens: principal.via === 'session' ? await this.sessions.start(principal.userId) : null };
  }

  /** Account and key endpoints need a real user, which DISABLE_AUTH does not have. */
  assertAccount(principal: Principal, what: string): void {
    if (principal.via === 'disabled') throw new AuthDisabledError(what);
  }
}

export async function createAuthService(ctx: AppContext): Promise<AuthService> {
  const { config, db, log } = ctx;
  const signer = new TokenSigner(loadSigningKey(config.dataDir, config.secretKey, log), {
    access: config.accessTokenSeconds,
    refresh: config.refreshTokenSeconds,
  });
  const users = new UserService(new UsersRepo(db), new PasswordHasher(), config.dataDir, log);
  await users.ensureAdmin(config.adminEmail, config.adminPassword);
  return new AuthService(
    config.disableAuth,
    users,
    new SessionService(new SessionsRepo(db), signer, log),
    new ApiKeyService(new ApiKeysRepo(db)),
    new LoginThrottle(),
  );
}
