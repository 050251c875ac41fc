import type { Role, User } from '@berth/contract';
import type { UserRow, UsersRepo } from '../../db/users-repo';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors';
import type { ApiKeyService } from './api-keys';
import type { PasswordHasher } from './passwords';
import type { StreamRevoker } from '../streams/registry';
import type { SessionService } from './sessions';
import type { UserService } from './users';

const DISABLED = 'An admin disabled this account.';
const RESET = 'An admin reset the password of this account.';
const LAST_ADMIN = 'There must always be at least one enabled admin: make another account admin first.';

export const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  role: row.role,
  disabled: row.disabled_at !== null,
  totp_enabled: row.totp_enabled_at !== null,
  created_at: row.created_at,
});

/**
 * Accounts as admins manage them (Settings > Users). A role change applies at once: sessions
 * and API keys read the role on every request. Disabling ends the user's sessions (and their
 * keys are refused while disabled); a password reset ends the sessions and revokes the keys.
 * The last enabled admin can be neither demoted, disabled nor deleted: each change is checked
 * inside its own transaction, so two admins demoting each other cannot both succeed.
 */
export class UserAdminService {
  constructor(
    private readonly repo: UsersRepo,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly apiKeys: ApiKeyService,
    private readonly streams: StreamRevoker,
    private readonly initialPassword: Pick<UserService, 'isInitialAccount' | 'forgetInitialPassword'>,
  ) {}

  list(): User[] {
    return this.repo.list().map(toUser);
  }

  async create(input: { email: string; password: string; role: Role }): Promise<User> {
    const hash = await this.passwords.hash(input.password);
    const email = input.email.trim().toLowerCase();
    if (this.repo.byEmail(email)) throw new ConflictError(`Another account already uses ${email}.`);
    return toUser(this.byId(this.repo.insert(email, hash, input.role)));
  }

  /**
   * One's own password and role change only through one's account (PATCH /api/auth/me, which asks
   * the current password and keeps the role): a stolen session cannot lock the owner out here.
   */
  assertNotOwnCredentials(actingId: number, id: number, change: { role?: unknown; password?: unknown }): void {
    if (actingId !== id) return;
    if (change.password !== undefined)
      throw new ForbiddenError('Change your own password under Account (PATCH /api/auth/me), not here.');
    if (change.role !== undefined)
      throw new ForbiddenError('An admin cannot change their own role; another admin can.');
  }

  async update(id: number, change: { role?: Role; disabled?: boolean; password?: string }): Promise<User> {
    this.byId(id);
    const hash = change.password === undefined ? null : await this.passwords.hash(change.password);
    const initial = this.initialPassword.isInitialAccount(id);
    this.repo.transaction(() => {
      if (change.role !== undefined) this.repo.setRole(id, change.role);
      if (change.disabled !== undefined) this.repo.setDisabled(id, change.disabled);
      if (hash) this.repo.setPassword(id, hash);
      if (this.repo.countActiveAdmins() === 0) throw new ConflictError(LAST_ADMIN);
    });
    // Open streams end too (a terminal is hung up): a right taken away must not live on in them.
    if (change.role !== undefined)
      this.streams.roleChanged(id, change.role, `An admin changed this account's role to ${change.role}.`);
    if (change.disabled === true) {
      this.sessions.endAllForUser(id, DISABLED);
      this.streams.revokeUser(id, DISABLED);
    }
    if (hash) {
      if (initial) this.initialPassword.forgetInitialPassword();
      this.sessions.endAllForUser(id, RESET);
      this.apiKeys.revokeAllForUser(id, RESET);
    }
    return toUser(this.byId(id));
  }

  /** Ends every session of the user (and the streams opened with them); returns how many were live. */
  endSessions(id: number): number {
    this.byId(id);
    return this.sessions.endAllForUser(id, 'An admin ended the sessions of this account.');
  }

  remove(id: number): void {
    this.byId(id);
    const initial = this.initialPassword.isInitialAccount(id);
    this.repo.transaction(() => {
      this.repo.remove(id);
      if (this.repo.countActiveAdmins() === 0) throw new ConflictError(LAST_ADMIN);
    });
    if (initial) this.initialPassword.forgetInitialPassword();
    this.streams.revokeUser(id, 'An admin deleted this account.');
  }

  private byId(id: number): UserRow {
    const row = this.repo.byId(id);
    if (!row) throw new NotFoundError('user', id);
    return row;
  }
}
