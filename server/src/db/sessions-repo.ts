import type { Db } from './database';

/** A session joined with its user, as the auth check needs it. */
export interface SessionRow {
  id: string;
  user_id: number;
  email: string;
  refresh_jti: string;
  expires_at: string;
  revoked_at: string | null;
}

/** SQL for the sessions table: one row per sign-in, shared by its access and refresh tokens. */
export class SessionsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare('INSERT INTO sessions (id, user_id, refresh_jti, created_at, expires_at) VALUES (?, ?, ?, ?, ?)'),
      find: db.prepare(
        'SELECT s.id, s.user_id, u.email, s.refresh_jti, s.expires_at, s.revoked_at FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?',
      ),
      // Compare-and-set: only the holder of the current refresh token can rotate it, so two
      // concurrent refreshes with the same token cannot both succeed.
      rotate: db.prepare('UPDATE sessions SET refresh_jti = ?, expires_at = ? WHERE id = ? AND refresh_jti = ? AND revoked_at IS NULL'),
      revoke: db.prepare('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      revokeAllForUser: db.prepare('UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL'),
      pruneExpired: db.prepare('DELETE FROM sessions WHERE expires_at < ?'),
    };
  }

  insert(s: { id: string; userId: number; refreshJti: string; expiresAt: string }): void {
    this.stmts.insert.run(s.id, s.userId, s.refreshJti, new Date().toISOString(), s.expiresAt);
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
