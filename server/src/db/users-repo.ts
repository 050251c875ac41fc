import type { Db } from './database';

export interface UserRow {
  id: number;
  email: string;
  password_hash: string;
  created_at: string;
  updated_at: string;
}

/** SQL for the users table; emails are stored lower-case and compared case-insensitively. */
export class UsersRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      count: db.prepare('SELECT COUNT(*) FROM users').pluck(),
      byId: db.prepare('SELECT * FROM users WHERE id = ?'),
      byEmail: db.prepare('SELECT * FROM users WHERE email = ?'),
      insert: db.prepare('INSERT INTO users (email, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?)'),
      setEmail: db.prepare('UPDATE users SET email = ?, updated_at = ? WHERE id = ?'),
      setPassword: db.prepare('UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?'),
    };
  }

  count(): number {
    return this.stmts.count.get() as number;
  }

  byId(id: number): UserRow | undefined {
    return this.stmts.byId.get(id) as UserRow | undefined;
  }

  byEmail(email: string): UserRow | undefined {
    return this.stmts.byEmail.get(email) as UserRow | undefined;
  }

  insert(email: string, passwordHash: string): number {
    const now = new Date().toISOString();
    return Number(this.stmts.insert.run(email, passwordHash, now, now).lastInsertRowid);
  }

  setEmail(id: number, email: string): void {
    this.stmts.setEmail.run(email, new Date().toISOString(), id);
  }

  setPassword(id: number, passwordHash: string): void {
    this.stmts.setPassword.run(passwordHash, new Date().toISOString(), id);
  }
}
