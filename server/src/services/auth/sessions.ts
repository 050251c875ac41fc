import type { AppContext } from '../../context';
import type { SessionListRow, SessionsRepo } from '../../db/sessions-repo';
import { NotFoundError, UnauthorizedError } from '../../errors';
import type { StreamRevoker } from '../streams/registry';
import type { Principal } from './principal';
import { assertCsrf, randomToken, type IssuedToken, type TokenSigner } from './tokens';

export interface SessionTokens {
  access: IssuedToken;
  refresh: IssuedToken;
}

/** Where a sign-in came from, shown in the sessions list. */
export interface Device {
  userAgent: string | null;
  ip: string | null;
}

const ENDED = 'This session has ended. Sign in again.';
const SESSION_ENDED = 'The session this stream was opened with has ended.';
/** last_used_at is a hint for the user: write it at most once a minute. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Sign-in sessions. A session row is shared by its access and refresh tokens (claim `sid`), so
 * revoking the row ends both at once. The refresh token is single-use: every refresh rotates it,
 * and presenting an already-rotated one means it was copied, so the whole session is ended.
 */
export class SessionService {
  constructor(
    private readonly repo: SessionsRepo,
    private readonly signer: TokenSigner,
    private readonly log: AppContext['log'],
    private readonly streams?: StreamRevoker,
  ) {}

  async start(userId: number, device: Device): Promise<SessionTokens> {
    this.repo.pruneExpired();
    const sid = randomToken(16);
    const tokens = await this.issue(userId, sid);
    const userAgent = device.userAgent?.slice(0, 300) ?? null;
    this.repo.insert({
      id: sid,
      userId,
      refreshJti: tokens.refresh.jti,
      expiresAt: tokens.refresh.expiresAt.toISOString(),
      userAgent,
      ip: device.ip,
    });
    return tokens;
  }

  /** The user's live sessions, newest first. */
  list(userId: number): SessionListRow[] {
    return this.repo.listLive(userId);
  }

  /** Who a session belongs to, or null when there is no such session. */
  ownerOf(sessionId: string): number | null {
    return this.repo.find(sessionId)?.user_id ?? null;
  }

  /** Ends one live session of the user; another user's session answers like a missing one. */
  endForUser(sessionId: string, userId: number): void {
    if (!this.repo.revokeForUser(sessionId, userId)) throw new NotFoundError('session', sessionId);
    this.streams?.revokeSession(sessionId, SESSION_ENDED);
  }

  /** Checks an access token and its session; returns who it is and the csrf claim to compare. */
  async authenticate(accessToken: string): Promise<{ principal: Principal; csrf: string }> {
    const claims = await this.signer.verify(accessToken, 'access');
    const session = this.liveSession(claims.sid, claims.userId);
    const now = new Date();
    if (!session.last_used_at || now.getTime() - Date.parse(session.last_used_at) >= TOUCH_INTERVAL_MS)
      this.repo.touch(session.id, now.toISOString());
    return {
      principal: {
        userId: session.user_id,
        username: session.email,
        role: session.role,
        via: 'session',
        sessionId: session.id,
      },
      csrf: claims.csrf,
    };
  }

  /** Trades a refresh token (plus its csrf claim in the header) for a new pair of tokens. */
  async refresh(refreshToken: string, csrfHeader: string | string[] | undefined): Promise<SessionTokens> {
    const claims = await this.signer.verify(refreshToken, 'refresh');
    assertCsrf(csrfHeader, claims.csrf);
    const session = this.liveSession(claims.sid, claims.userId);
    const tokens = await this.issue(claims.userId, claims.sid);
    if (
      session.refresh_jti !== claims.jti ||
      !this.repo.rotate(session.id, claims.jti, tokens.refresh.jti, tokens.refresh.expiresAt.toISOString())
    ) {
      this.revoke(session.id);
      this.log.warn({ userId: claims.userId }, 'an already used refresh token was presented; the session was ended');
      throw new UnauthorizedError(
        'This refresh token was already used, so the session was ended for safety. Sign in again.',
      );
    }
    return tokens;
  }

  /** Whether a refresh token would be accepted now (read only: nothing rotates or ends). */
  async canRefresh(refreshToken: string): Promise<boolean> {
    try {
      const claims = await this.signer.verify(refreshToken, 'refresh');
      return this.liveSession(claims.sid, claims.userId).refresh_jti === claims.jti;
    } catch (err) {
      if (err instanceof UnauthorizedError) return false;
      throw err;
    }
  }

  /** Who an access token belongs to, or null when it is missing, expired or its session ended. */
  async peek(accessToken: string | undefined): Promise<Principal | null> {
    if (!accessToken) return null;
    try {
      return (await this.authenticate(accessToken)).principal;
    } catch (err) {
      if (err instanceof UnauthorizedError) return null;
      throw err;
    }
  }

  end(sessionId: string): void {
    this.revoke(sessionId);
  }

  /** Ends the session a refresh token belongs to; false when the token is not one of ours. */
  async endByRefreshToken(refreshToken: string): Promise<boolean> {
    const claims = await this.signer.verify(refreshToken, 'refresh').catch((err: unknown) => {
      if (err instanceof UnauthorizedError) return null;
      throw err;
    });
    if (!claims) return false;
    const session = this.repo.find(claims.sid);
    if (session?.user_id !== claims.userId) return false;
    this.revoke(session.id);
    return true;
  }

  /** Ends every session of the user; their live streams end with `reason`. Returns how many were live. */
  endAllForUser(userId: number, reason: string): number {
    const n = this.repo.revokeAllForUser(userId);
    this.streams?.revokeSessions(userId, reason);
    return n;
  }

  /** Whether a session is still live (not ended, not expired), for the live-stream check. */
  isLive(sessionId: string): boolean {
    const s = this.repo.find(sessionId);
    return s !== undefined && s.revoked_at === null && s.expires_at > new Date().toISOString();
  }

  /** Ends a session and the live streams opened with it. */
  private revoke(sessionId: string): void {
    this.repo.revoke(sessionId);
    this.streams?.revokeSession(sessionId, SESSION_ENDED);
  }

  private liveSession(sid: string, userId: number) {
    const session = this.repo.find(sid);
    if (
      !session ||
      session.user_id !== userId ||
      session.revoked_at !== null ||
      session.disabled_at !== null ||
      session.expires_at <= new Date().toISOString()
    ) {
      throw new UnauthorizedError(ENDED);
    }
    return session;
  }

  private async issue(userId: number, sid: string): Promise<SessionTokens> {
    return {
      access: await this.signer.issue('access', userId, sid),
      refresh: await this.signer.issue('refresh', userId, sid),
    };
  }
}
