import type { Role } from '@berth/contract';
import type { Db } from './database';

/** A session joined with its user, as the auth check needs it. */
export interface SessionRow {
  id: string;
  user_id: number;
  email: string;
  role: Role;
  disabled_at: string | null;
  refresh_jti: string;
  last_used_at: string | null;
  expires_at: string;
  revoked_at: string | null;
}

/** A live session as its owner (or an admin) sees it. */
export interface SessionListRow {
  id: string;
  user_id: number;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  last_used_at: string | null;
}

/** SQL for the sessions table: one row per sign-in, shared by its access and refresh tokens. */
export class SessionsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(
        'INSERT INTO sessions (id, user_id, refresh_jti, created_at, expires_at, user_agent, ip, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      find: db.prepare(
        'SELECT s.id, s.user_id, u.email, u.role, u.disabled_at, s.refresh_jti, s.expires_at, s.revoked_at, s.last_used_at FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?',
      ),
      listLive: db.prepare(
        'SELECT id, user_id, user_agent, ip, created_at, last_used_at FROM sessions WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ? ORDER BY created_at DESC',
      ),
      touch: db.prepare('UPDATE sessions SET last_used_at = ? WHERE id = ?'),
      revokeForUser: db.prepare(
        'UPDATE sessions SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ?',
      ),
      // Compare-and-set: only the holder of the current refresh token can rotate it, so two
      // concurrent refreshes with the same token cannot both succeed.
      rotate: db.prepare(
        'UPDATE sessions SET refresh_jti = ?, expires_at = ? WHERE id = ? AND refresh_jti = ? AND revoked_at IS NULL',
      ),
      revoke: db.prepare('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      revokeAllForUser: db.prepare('UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL'),
      pruneExpired: db.prepare('DELETE FROM sessions WHERE expires_at < ?'),
    };
  }

  insert(s: {
    id: string;
    userId: number;
    refreshJti: string;
    expiresAt: string;
    userAgent: string | null;
    ip: string | null;
  }): void {
    const now = new Date().toISOString();
    this.stmts.insert.run(s.id, s.userId, s.refreshJti, now, s.expiresAt, s.userAgent, s.ip, now);
  }

  listLive(userId: number): SessionListRow[] {
    return this.stmts.listLive.all(userId, new Date().toISOString()) as SessionListRow[];
  }

  touch(id: string, at: string): void {
    this.stmts.touch.run(at, id);
  }

  /** Ends a live session of the user; false when the user has no such live session. */
  revokeForUser(id: string, userId: number): boolean {
    const now = new Date().toISOString();
    return this.stmts.revokeForUser.run(now, id, userId, now).changes === 1;
  }

  find(id: string): SessionRow | undefined {
    return this.stmts.find.get(id) as SessionRow | undefined;
  }

  /** Returns false when the session was revoked or its refresh token already rotated. */
  rotate(id: string, oldJti: string, newJti: string, expiresAt: string): boolean {
    return this.stmts.rotate.run(newJti, expiresAt, id, oldJti).changes === 1;
  }

  revoke(id: string): void {
    this.stmts.revoke.run(new Date().toISOString(), id);
  }

  revokeAllForUser(userId: number): number {
    return this.stmts.revokeAllForUser.run(new Date().toISOString(), userId).changes;
  }

  /** Expired rows can never authenticate again; revoked ones are kept until they expire. */
  pruneExpired(): void {
    this.stmts.pruneExpired.run(new Date().toISOString());
  }
}
