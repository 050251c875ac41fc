import type { Uses } from '../../context';
import { ApiKeysRepo } from '../../db/api-keys-repo';
import { SessionsRepo } from '../../db/sessions-repo';
import { UsersRepo } from '../../db/users-repo';
import { roleAllows, type Session, type TotpSetup } from '@berth/contract';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  OidcSignInError,
  ReauthFailedError,
  UnauthorizedError,
} from '../../errors';
import { ApiKeyService } from './api-keys';
import { PasswordHasher } from './passwords';
import { AuthDisabledError, type Principal } from './principal';
import { SessionService, type Device, type SessionTokens } from './sessions';
import { LoginThrottle } from './throttle';
import { TokenSigner, loadSigningKey } from './tokens';
import { TotpService } from './totp';
import { OidcService, requireOidc } from './oidc';
import { UserAdminService } from './user-admin';
import { UserService } from './users';
import type { StreamHolder, StreamRegistry } from '../streams/registry';

export type { Principal } from './principal';
export type { Device, SessionTokens } from './sessions';

const INVALID_LOGIN = 'Invalid username or password.';
const ACCOUNT_DISABLED = 'This account is disabled. Ask an admin to enable it.';
const PASSWORD_CHANGED = 'The password of this account changed.';

/** The auth use cases, built once per app. */
export class AuthService {
  constructor(
    readonly disabled: boolean,
    readonly users: UserService,
    readonly sessions: SessionService,
    readonly apiKeys: ApiKeyService,
    readonly userAdmin: UserAdminService,
    private readonly totp: TotpService,
    readonly oidc: OidcService | null,
    private readonly throttle: LoginThrottle,
    private readonly signer: TokenSigner,
  ) {}

  /**
   * Same answer for an unknown user and a wrong password; throttled per client. With TOTP on,
   * a right password only earns a short-lived challenge for loginTotp.
   */
  async login(
    username: string,
    password: string,
    device: Device & { ip: string },
  ): Promise<{ username: string; tokens: SessionTokens } | { challenge: string }> {
    if (this.disabled) throw new AuthDisabledError('Signing in');
    if (this.oidc?.config.only)
      throw new ForbiddenError(`Password sign-in is off on this server: sign in with ${this.oidc.config.name}.`);
    const user = await this.throttle.attempt(device.ip, username, () =>
      this.users.verifyCredentials(username, password),
    );
    if (!user) throw new UnauthorizedError(INVALID_LOGIN);
    assertEnabled(user);
    if (user.totp_enabled_at !== null) return { challenge: await this.signer.issueChallenge(user.id) };
    return { username: user.email, tokens: await this.sessions.start(user.id, device) };
  }

  /**
   * Finishes a single sign-on (the provider's redirect); a session for the linked or new account,
   * and whether the flow was one that linked the signed-in user's account.
   */
  async loginOidc(
    flowToken: string | undefined,
    query: string,
    device: Device & { ip: string },
  ): Promise<{ tokens: SessionTokens; linked: boolean }> {
    if (this.disabled) throw new AuthDisabledError('Signing in');
    const { user, linked } = await requireOidc(this.oidc).finish(flowToken, query);
    if (user.disabled_at !== null) throw new OidcSignInError('account_disabled', ACCOUNT_DISABLED);
    return { tokens: await this.sessions.start(user.id, device), linked };
  }

  /**
   * Starts a single sign-on that links the provider's account to the signed-in user: only from a
   * session (not an API key), with the current password and, when TOTP is on, a code.
   */
  async startOidcLink(
    principal: Principal,
    reauth: { current_password?: string; totp_code?: string },
    ip: string,
  ): Promise<{ url: string; flow: string }> {
    const oidc = requireOidc(this.oidc);
    this.assertAccount(principal, 'Linking single sign-on');
    await this.confirmFromSession(
      principal,
      reauth,
      ip,
      'An API key cannot link single sign-on. Sign in with your password.',
    );
    return oidc.start(principal.userId);
  }

  /** The second step of a sign-in with TOTP: the challenge from login and a code or recovery code. */
  async loginTotp(
    challenge: string,
    factor: { code?: string; recovery_code?: string },
    device: Device & { ip: string },
  ) {
    if (this.disabled) throw new AuthDisabledError('Signing in');
    const userId = await this.signer.verifyChallenge(challenge);
    const user = this.users.find(userId);
    if (!user || user.totp_enabled_at === null)
      throw new UnauthorizedError('The sign-in challenge is no longer valid. Enter your password again.');
    assertEnabled(user);
    await this.totp.check(user, factor, device.ip);
    return { username: user.email, tokens: await this.sessions.start(user.id, device) };
  }

  async totpSetup(principal: Principal): Promise<TotpSetup> {
    this.assertAccount(principal, 'Setting up TOTP');
    return this.totp.setup(this.users.byId(principal.userId));
  }

  async totpEnable(principal: Principal, code: string, ip: string): Promise<string[]> {
    this.assertAccount(principal, 'Turning TOTP on');
    return this.totp.enable(this.users.byId(principal.userId), code, ip);
  }

  /** Needs the password and a current code (or a recovery code), so a stolen session alone cannot turn it off. */
  async totpDisable(principal: Principal, password: string, code: string, ip: string): Promise<void> {
    this.assertAccount(principal, 'Turning TOTP off');
    await this.reauthenticate(principal, password, ip);
    const user = this.users.byId(principal.userId);
    if (user.totp_enabled_at === null) throw new ConflictError('TOTP is not on.');
    await this.totp.check(user, { code }, ip);
    this.totp.disable(user.id);
  }

  /** Live sessions of the principal, or of `userId` for an admin. */
  listSessions(principal: Principal, userId: number | undefined): Session[] {
    this.assertAccount(principal, 'Listing sessions');
    const owner = this.sessionOwner(principal, userId ?? principal.userId);
    return this.sessions.list(owner).map((s) => ({
      id: s.id,
      user_id: s.user_id,
      device: s.user_agent,
      address: s.ip,
      created_at: s.created_at,
      last_used_at: s.last_used_at,
      current: s.id === principal.sessionId,
    }));
  }

  /** Ends one of the principal's sessions; an admin may end anyone's. */
  endSession(principal: Principal, sessionId: string): void {
    this.assertAccount(principal, 'Ending a session');
    const owner = principal.role === 'admin' ? this.sessions.ownerOf(sessionId) : principal.userId;
    if (owner === null) throw new NotFoundError('session', sessionId);
    this.sessions.endForUser(sessionId, owner);
  }

  private sessionOwner(principal: Principal, userId: number): number {
    if (userId !== principal.userId && principal.role !== 'admin')
      throw new ForbiddenError("Only an admin may see another user's sessions.");
    return this.users.byId(userId).id;
  }

  /**
   * Re-authentication for sensitive changes: the current password of the acting user, checked
   * under the sign-in throttle so a leaked API key or token cannot be used to guess it. Without
   * accounts (DISABLE_AUTH) there is nothing to check.
   */
  async reauthenticate(principal: Principal, currentPassword: string | undefined, ip: string): Promise<void> {
    if (principal.via === 'disabled') return;
    if (!currentPassword)
      throw new ReauthFailedError('Confirm this change with your current password (field current_password).');
    const { email } = this.users.byId(principal.userId);
    const user = await this.throttle.attempt(ip, email, () => this.users.verifyCredentials(email, currentPassword));
    if (!user) throw new ReauthFailedError('The current password is wrong.');
  }

  /**
   * Changes the signed-in user's email and/or password after re-authentication. A new password
   * ends every session of the user (the caller's too; a session caller gets a fresh one so they
   * stay signed in) and revokes the user's API keys unless `keepApiKeys` is set.
   */
  async changeAccount(
    principal: Principal,
    change: { email: string; password: string; currentPassword: string | undefined; keepApiKeys: boolean },
    device: Device & { ip: string },
  ): Promise<{ username: string; tokens: SessionTokens | null }> {
    this.assertAccount(principal, 'Changing the account');
    await this.reauthenticate(principal, change.currentPassword, device.ip);
    const { email: username, passwordChanged } = await this.users.changeAccount(
      principal.userId,
      change.email,
      change.password,
    );
    if (!passwordChanged) return { username, tokens: null };
    this.sessions.endAllForUser(principal.userId, PASSWORD_CHANGED);
    if (!change.keepApiKeys) this.apiKeys.revokeAllForUser(principal.userId, PASSWORD_CHANGED);
    return {
      username,
      tokens: principal.via === 'session' ? await this.sessions.start(principal.userId, device) : null,
    };
  }

  /**
   * Confirms a change to accounts (create, role, password reset, enable/disable, delete): only
   * from a signed-in session (a leaked API key must not mint admins), with the acting admin's
   * current password and, when their TOTP is on, a current code or a recovery code.
   */
  confirmUserAdmin(
    principal: Principal,
    reauth: { current_password?: string; totp_code?: string } | undefined,
    ip: string,
  ): Promise<void> {
    return this.confirmFromSession(
      principal,
      reauth,
      ip,
      'An API key cannot add, change or delete accounts. Sign in with your password to manage users.',
    );
  }

  /** A sensitive change from a signed-in session only (`keyRefusal` for an API key): password, then TOTP when on. */
  private async confirmFromSession(
    principal: Principal,
    reauth: { current_password?: string; totp_code?: string } | undefined,
    ip: string,
    keyRefusal: string,
  ): Promise<void> {
    if (principal.via === 'disabled') return;
    if (principal.via === 'api_key') throw new ForbiddenError(keyRefusal);
    await this.reauthenticate(principal, reauth?.current_password, ip);
    const user = this.users.byId(principal.userId);
    if (user.totp_enabled_at === null) return;
    if (!reauth?.totp_code)
      throw new ReauthFailedError(
        'Your account has TOTP on: confirm this change with a code from your authenticator app (field totp_code).',
      );
    try {
      await this.totp.check(user, { code: reauth.totp_code }, ip);
    } catch (err) {
      // A wrong code here is a refused confirmation (403), not a lost session (401, which makes clients sign out).
      if (err instanceof UnauthorizedError) throw new ReauthFailedError(`TOTP code refused: ${err.message}`);
      throw err;
    }
  }

  /** A new API key, only from a signed-in session and after re-authentication: a key cannot mint keys. */
  async createApiKey(principal: Principal, keyName: string, currentPassword: string | undefined, ip: string) {
    this.assertAccount(principal, 'Generating an API key');
    if (principal.via === 'api_key')
      throw new ForbiddenError('An API key cannot create API keys. Sign in with your password to make one.');
    await this.reauthenticate(principal, currentPassword, ip);
    return this.apiKeys.create(principal.userId, keyName);
  }

  /** Why the holder of a live stream may no longer keep it, or null (the registry's periodic check). */
  streamRefusal(holder: StreamHolder & { userId: number }): string | null {
    const user = this.users.find(holder.userId);
    if (!user) return 'This account was deleted.';
    if (user.disabled_at !== null) return 'This account is disabled.';
    if (holder.need !== undefined && !roleAllows(user.role, holder.need))
      return `This account's role is now ${user.role}.`;
    if (holder.sessionId !== undefined && !this.sessions.isLive(holder.sessionId))
      return 'The session this stream was opened with has ended.';
    if (holder.keyId !== undefined && !this.apiKeys.exists(holder.keyId))
      return 'The API key this stream was opened with was revoked.';
    return null;
  }

  /** The CSRF token for DISABLE_AUTH (see TokenSigner.openCsrfToken); null while auth is on. */
  openCsrfToken(): string | null {
    return this.disabled ? this.signer.openCsrfToken() : null;
  }

  checkOpenCsrf(header: string | string[] | undefined): boolean {
    return this.signer.checkOpenCsrf(header);
  }

  /** Account and key endpoints need a real user, which DISABLE_AUTH does not have. */
  assertAccount(principal: Principal, what: string): void {
    if (principal.via === 'disabled') throw new AuthDisabledError(what);
  }
}

/** Said only to someone who knows the password, so it reveals nothing to a guesser. */
function assertEnabled(user: { disabled_at: string | null }): void {
  if (user.disabled_at !== null) throw new UnauthorizedError(ACCOUNT_DISABLED);
}

export async function createAuthService(
  ctx: Uses<
    'db' | 'log',
    | 'accessTokenSeconds'
    | 'adminEmail'
    | 'adminPassword'
    | 'dataDir'
    | 'disableAuth'
    | 'oidc'
    | 'refreshTokenSeconds'
    | 'secretKey'
  >,
  streams: StreamRegistry,
): Promise<AuthService> {
  const { config, db, log } = ctx;
  const signer = new TokenSigner(loadSigningKey(config.dataDir, config.secretKey, log), {
    access: config.accessTokenSeconds,
    refresh: config.refreshTokenSeconds,
  });
  const usersRepo = new UsersRepo(db);
  const throttle = new LoginThrottle();
  const passwords = new PasswordHasher();
  const users = new UserService(usersRepo, passwords, config.dataDir, log);
  await users.ensureAdmin(config.adminEmail, config.adminPassword);
  const sessions = new SessionService(new SessionsRepo(db), signer, log, streams);
  const apiKeys = new ApiKeyService(new ApiKeysRepo(db), streams);
  const auth = new AuthService(
    config.disableAuth,
    users,
    sessions,
    apiKeys,
    new UserAdminService(usersRepo, passwords, sessions, apiKeys, streams, users),
    // Codes count against their own budget, so a mistyped code does not eat into the password's.
    new TotpService(usersRepo, new LoginThrottle()),
    config.oidc ? new OidcService(config.oidc, usersRepo, passwords, signer, log) : null,
    throttle,
    signer,
  );
  streams.watch((holder) => auth.streamRefusal(holder));
  return auth;
}
