import type { Role } from '@berth/contract';
import type { Db } from './database';

export interface UserRow {
  id: number;
  email: string;
  password_hash: string;
  role: Role;
  disabled_at: string | null;
  totp_secret: string | null;
  totp_enabled_at: string | null;
  totp_last_step: number | null;
  oidc_subject: string | null;
  /** 1 once the owner changed the email themselves: never a key for single sign-on to link by. */
  email_self_set: number;
  created_at: string;
  updated_at: string;
}

/** SQL for the users table; emails are stored lower-case and compared case-insensitively. */
export class UsersRepo {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      count: db.prepare('SELECT COUNT(*) FROM users').pluck(),
      countActiveAdmins: db.prepare("SELECT COUNT(*) FROM users WHERE role = 'admin' AND disabled_at IS NULL").pluck(),
      list: db.prepare('SELECT * FROM users ORDER BY id'),
      byId: db.prepare('SELECT * FROM users WHERE id = ?'),
      byEmail: db.prepare('SELECT * FROM users WHERE email = ?'),
      byOidcSubject: db.prepare('SELECT * FROM users WHERE oidc_subject = ?'),
      setOidcSubject: db.prepare('UPDATE users SET oidc_subject = ?, updated_at = ? WHERE id = ?'),
      insert: db.prepare(
        'INSERT INTO users (email, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      ),
      setEmail: db.prepare('UPDATE users SET email = ?, email_self_set = 1, updated_at = ? WHERE id = ?'),
      setPassword: db.prepare('UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?'),
      setRole: db.prepare('UPDATE users SET role = ?, updated_at = ? WHERE id = ?'),
      setDisabled: db.prepare('UPDATE users SET disabled_at = ?, updated_at = ? WHERE id = ?'),
      remove: db.prepare('DELETE FROM users WHERE id = ?'),
      setTotpSecret: db.prepare(
        'UPDATE users SET totp_secret = ?, totp_enabled_at = NULL, totp_last_step = NULL, updated_at = ? WHERE id = ?',
      ),
      enableTotp: db.prepare('UPDATE users SET totp_enabled_at = ?, totp_last_step = ?, updated_at = ? WHERE id = ?'),
      // Compare-and-set: a time step is accepted once, even by two concurrent sign-ins.
      useTotpStep: db.prepare(
        'UPDATE users SET totp_last_step = ? WHERE id = ? AND (totp_last_step IS NULL OR totp_last_step < ?)',
      ),
      deleteRecovery: db.prepare('DELETE FROM recovery_codes WHERE user_id = ?'),
      insertRecovery: db.prepare('INSERT INTO recovery_codes (user_id, code_hash) VALUES (?, ?)'),
      unusedRecovery: db.prepare('SELECT id, code_hash FROM recovery_codes WHERE user_id = ? AND used_at IS NULL'),
      useRecovery: db.prepare('UPDATE recovery_codes SET used_at = ? WHERE id = ? AND used_at IS NULL'),
    };
  }

  count(): number {
    return this.stmts.count.get() as number;
  }

  /** Admins who can still sign in: there must always be at least one. */
  countActiveAdmins(): number {
    return this.stmts.countActiveAdmins.get() as number;
  }

  list(): UserRow[] {
    return this.stmts.list.all() as UserRow[];
  }

  byId(id: number): UserRow | undefined {
    return this.stmts.byId.get(id) as UserRow | undefined;
  }

  byEmail(email: string): UserRow | undefined {
    return this.stmts.byEmail.get(email) as UserRow | undefined;
  }

  byOidcSubject(subject: string): UserRow | undefined {
    return this.stmts.byOidcSubject.get(subject) as UserRow | undefined;
  }

  setOidcSubject(id: number, subject: string): void {
    this.stmts.setOidcSubject.run(subject, new Date().toISOString(), id);
  }

  insert(email: string, passwordHash: string, role: Role): number {
    const now = new Date().toISOString();
    return Number(this.stmts.insert.run(email, passwordHash, role, now, now).lastInsertRowid);
  }

  /** The owner's own change of email (marks it self-set). */
  setEmail(id: number, email: string): void {
    this.stmts.setEmail.run(email, new Date().toISOString(), id);
  }

  setPassword(id: number, passwordHash: string): void {
    this.stmts.setPassword.run(passwordHash, new Date().toISOString(), id);
  }

  setRole(id: number, role: Role): void {
    this.stmts.setRole.run(role, new Date().toISOString(), id);
  }

  setDisabled(id: number, disabled: boolean): void {
    const now = new Date().toISOString();
    this.stmts.setDisabled.run(disabled ? now : null, now, id);
  }

  remove(id: number): void {
    this.stmts.remove.run(id);
  }

  /** Runs `fn` in one transaction (a check and the writes it guards cannot interleave with another request). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** A new, not yet enabled TOTP secret (null turns TOTP off); recovery codes go with it. */
  setTotpSecret(id: number, secret: string | null): void {
    this.transaction(() => {
      this.stmts.setTotpSecret.run(secret, new Date().toISOString(), id);
      this.stmts.deleteRecovery.run(id);
    });
  }

  enableTotp(id: number, step: number, recoveryHashes: string[]): void {
    this.transaction(() => {
      this.stmts.enableTotp.run(new Date().toISOString(), step, new Date().toISOString(), id);
      this.stmts.deleteRecovery.run(id);
      for (const hash of recoveryHashes) this.stmts.insertRecovery.run(id, hash);
    });
  }

  /** Records an accepted time step; false when it (or a later one) was already used. */
  useTotpStep(id: number, step: number): boolean {
    return this.stmts.useTotpStep.run(step, id, step).changes === 1;
  }

  unusedRecoveryCodes(userId: number): { id: number; code_hash: string }[] {
    return this.stmts.unusedRecovery.all(userId) as { id: number; code_hash: string }[];
  }

  /** Marks a recovery code used; false when it already was. */
  useRecoveryCode(id: number): boolean {
    return this.stmts.useRecovery.run(new Date().toISOString(), id).changes === 1;
  }
}
