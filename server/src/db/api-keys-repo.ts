import type { Role } from '@berth/contract';
import type { Db } from './database';

export interface ApiKeyRow {
  id: number;
  key_name: string;
  created_at: string;
  last_used_at: string | null;
}

/** An API key joined with its owner, as the auth check needs it. */
export interface ApiKeyOwnerRow {
  id: number;
  user_id: number;
  email: string;
  key_name: string;
  role: Role;
  disabled_at: string | null;
  last_used_at: string | null;
}

/** SQL for the api_keys table. Only the SHA-256 of a key is stored; the key itself is shown once. */
export class ApiKeysRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare('INSERT INTO api_keys (user_id, key_name, token_hash, created_at) VALUES (?, ?, ?, ?)'),
      byId: db.prepare('SELECT id, key_name, created_at, last_used_at FROM api_keys WHERE id = ?'),
      listForUser: db.prepare(
        'SELECT id, key_name, created_at, last_used_at FROM api_keys WHERE user_id = ? ORDER BY id',
      ),
      byHash: db.prepare(
        'SELECT k.id, k.user_id, u.email, u.role, u.disabled_at, k.key_name, k.last_used_at FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.token_hash = ?',
      ),
      touch: db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
      deleteForUser: db.prepare('DELETE FROM api_keys WHERE id = ? AND user_id = ?'),
      deleteAllForUser: db.prepare('DELETE FROM api_keys WHERE user_id = ?'),
    };
  }

  insert(userId: number, keyName: string, tokenHash: string): ApiKeyRow {
    const id = Number(this.stmts.insert.run(userId, keyName, tokenHash, new Date().toISOString()).lastInsertRowid);
    return this.stmts.byId.get(id) as ApiKeyRow;
  }

  exists(id: number): boolean {
    return this.stmts.byId.get(id) !== undefined;
  }

  listForUser(userId: number): ApiKeyRow[] {
    return this.stmts.listForUser.all(userId) as ApiKeyRow[];
  }

  byHash(tokenHash: string): ApiKeyOwnerRow | undefined {
    return this.stmts.byHash.get(tokenHash) as ApiKeyOwnerRow | undefined;
  }

  touch(id: number, at: string): void {
    this.stmts.touch.run(at, id);
  }

  /** Deletes a key only if it belongs to the user; false when there was no such key of theirs. */
  deleteForUser(id: number, userId: number): boolean {
    return this.stmts.deleteForUser.run(id, userId).changes === 1;
  }

  deleteAllForUser(userId: number): number {
    return this.stmts.deleteAllForUser.run(userId).changes;
  }
}
