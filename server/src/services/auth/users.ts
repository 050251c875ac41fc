import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../../context';
import type { UserRow, UsersRepo } from '../../db/users-repo';
import { ConflictError, NotFoundError } from '../../errors';
import type { PasswordHasher } from './passwords';
import { writePrivateFile } from './private-file';

export const INITIAL_PASSWORD_FILE = 'initial-admin-password';

/** Accounts: the first-start admin, credential checks and changes to one's own account. */
export class UserService {
  constructor(
    private readonly repo: UsersRepo,
    private readonly passwords: PasswordHasher,
    private readonly dataDir: string,
    private readonly log: AppContext['log'],
  ) {}

  /**
   * First start: creates the admin. Without ADMIN_PASSWORD a strong password is generated,
   * logged once and written to DATA_DIR/initial-admin-password (0600); there is no default.
   */
  async ensureAdmin(email: string, password: string | undefined): Promise<void> {
    if (this.repo.count() > 0) return;
    const chosen = password ?? crypto.randomBytes(18).toString('base64url');
    this.repo.insert(email.toLowerCase(), await this.passwords.hash(chosen), 'admin');
    if (password) {
      this.log.info({ email }, 'created the admin account from ADMIN_EMAIL and ADMIN_PASSWORD');
      return;
    }
    const file = path.join(this.dataDir, INITIAL_PASSWORD_FILE);
    writePrivateFile(file, `${chosen}\n`);
    // The one place a password is logged, on purpose: without it a fresh install cannot be entered.
    this.log.warn(
      `Created the admin account. Sign in as ${email} with the password ${chosen} (also in ${file}), then change it under User > Change Password.`,
    );
  }

  /**
   * Whether this is the account the first-start password file was made for: the first account
   * (a first start inserts it into an empty table), as long as it exists.
   */
  isInitialAccount(userId: number): boolean {
    return this.repo.list()[0]?.id === userId;
  }

  /**
   * The generated first-start password no longer opens its account (changed, reset by another
   * admin, or the account deleted): its file must not lie around. Other accounts' changes keep it.
   */
  forgetInitialPassword(): void {
    const file = path.join(this.dataDir, INITIAL_PASSWORD_FILE);
    if (!fs.existsSync(file)) return;
    fs.rmSync(file, { force: true });
    this.log.info(`removed ${file}: the first-start password no longer opens its account`);
  }

  /** The user when the credentials are right, else null; unknown names cost the same time. */
  async verifyCredentials(username: string, password: string): Promise<UserRow | null> {
    const user = this.repo.byEmail(username.trim().toLowerCase());
    if (!user) return this.passwords.verifyDummy(password).then(() => null);
    return (await this.passwords.verify(user.password_hash, password)) ? user : null;
  }

  /** The account's email when `name` is one (any case, spaces around), else null. */
  accountName(name: string): string | null {
    return this.repo.byEmail(name.trim().toLowerCase())?.email ?? null;
  }

  find(id: number): UserRow | undefined {
    return this.repo.byId(id);
  }

  byId(id: number): UserRow {
    const user = this.repo.byId(id);
    if (!user) throw new NotFoundError('user', id);
    return user;
  }

  /** Changes email and/or password (empty keeps it). Returns whether the password changed. */
  async changeAccount(
    userId: number,
    email: string,
    password: string,
  ): Promise<{ email: string; passwordChanged: boolean }> {
    const hash = password === '' ? null : await this.passwords.hash(password);
    // From here on nothing awaits, so the uniqueness check and the writes cannot interleave.
    const user = this.byId(userId);
    const newEmail = email.trim().toLowerCase();
    const holder = this.repo.byEmail(newEmail);
    if (holder && holder.id !== userId) throw new ConflictError(`Another account already uses ${newEmail}.`);
    if (newEmail !== user.email) this.repo.setEmail(userId, newEmail);
    const initial = this.isInitialAccount(userId);
    if (hash) {
      this.repo.setPassword(userId, hash);
      if (initial) this.forgetInitialPassword();
    }
    return { email: newEmail, passwordChanged: hash !== null };
  }
}
