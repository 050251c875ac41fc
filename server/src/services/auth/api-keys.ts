import crypto from 'node:crypto';
import type { ApiKey, NewApiKey } from '@berth/contract';
import type { ApiKeysRepo } from '../../db/api-keys-repo';
import { NotFoundError, UnauthorizedError } from '../../errors';
import type { StreamRevoker } from '../streams/registry';
import type { Principal } from './principal';
import { randomToken } from './tokens';

const PREFIX = 'berth_';
const KEY_SHAPE = /^berth_[A-Za-z0-9_-]{43}$/;
/** last_used_at is a hint for the user, not an audit log: write it at most once a minute. */
const TOUCH_INTERVAL_MS = 60_000;

const sha256 = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * API keys: opaque random tokens (`berth_` + 32 random bytes) sent as `Authorization: Bearer`.
 * Only their SHA-256 is stored (the key has 256 bits of entropy, so a slow hash adds nothing and
 * a lookup by hash stays one indexed query). A key acts as the user who made it, with that
 * user's role as it is now; deleting the row revokes it at once, disabling the user suspends it.
 */
export class ApiKeyService {
  constructor(
    private readonly repo: ApiKeysRepo,
    private readonly streams?: StreamRevoker,
  ) {}

  static looksLikeKey(token: string): boolean {
    return token.startsWith(PREFIX);
  }

  create(userId: number, keyName: string): NewApiKey {
    const token = PREFIX + randomToken(32);
    return { ...this.repo.insert(userId, keyName, sha256(token)), token };
  }

  list(userId: number): ApiKey[] {
    return this.repo.listForUser(userId);
  }

  revoke(userId: number, id: number): void {
    // Another user's key answers like a missing one, so ids of others' keys are not revealed.
    if (!this.repo.deleteForUser(id, userId)) throw new NotFoundError('API key', id);
    this.streams?.revokeKey(id, 'The API key this stream was opened with was revoked.');
  }

  /** Revokes every key of the user (after a password change); returns how many. */
  revokeAllForUser(userId: number, reason: string): number {
    const n = this.repo.deleteAllForUser(userId);
    this.streams?.revokeKeys(userId, reason);
    return n;
  }

  /** Whether a key still exists (not revoked), for the live-stream check. */
  exists(id: number): boolean {
    return this.repo.exists(id);
  }

  authenticate(token: string): Principal {
    const row = KEY_SHAPE.test(token) ? this.repo.byHash(sha256(token)) : undefined;
    if (!row) throw new UnauthorizedError('Unknown or revoked API key.');
    if (row.disabled_at !== null) throw new UnauthorizedError('The account this API key belongs to is disabled.');
    const now = new Date();
    if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) >= TOUCH_INTERVAL_MS)
      this.repo.touch(row.id, now.toISOString());
    return {
      userId: row.user_id,
      username: row.email,
      role: row.role,
      via: 'api_key',
      keyName: row.key_name,
      keyId: row.id,
    };
  }
}
