import type { Db } from './database';

/** A stored git credential; `secret_sealed` is the token or private key sealed by lib/secret-box. */
export interface GitCredentialRow {
  id: string;
  name: string;
  kind: 'https' | 'ssh';
  username: string | null;
  secret_sealed: string;
  /** known_hosts lines kept from each host's first answer (ssh). */
  known_hosts: string;
  created_at: string;
  updated_at: string;
}

export interface GitHookRow {
  id: string;
  url: string;
  secret_sealed: string;
  created_at: string;
}

/** What a git source feeds: a compose project or a swarm stack. */
export type GitOwnerKind = 'project' | 'stack';

/** Where one environment's project (or stack) comes from. */
export interface GitSourceRow {
  environment: string;
  kind: GitOwnerKind;
  name: string;
  url: string;
  ref: string;
  path: string;
  env_file: string | null;
  credential_id: string | null;
  sync_policy: 'manual' | 'poll' | 'webhook';
  poll_minutes: number | null;
  hook_id: string | null;
  deployed_commit: string | null;
  latest_commit: string | null;
  last_fetch_at: string | null;
  last_error: string | null;
  created_at: string;
}

const insertSql = (table: string, row: object) => {
  const cols = Object.keys(row);
  return `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`;
};

export class GitRepo {
  constructor(private readonly db: Db) {}

  credentials(): GitCredentialRow[] {
    return this.db.prepare('SELECT * FROM git_credentials ORDER BY name COLLATE NOCASE').all() as GitCredentialRow[];
  }

  credential(id: string): GitCredentialRow | null {
    return (
      (this.db.prepare('SELECT * FROM git_credentials WHERE id = ?').get(id) as GitCredentialRow | undefined) ?? null
    );
  }

  insertCredential(row: GitCredentialRow): void {
    this.db.prepare(insertSql('git_credentials', row)).run(row);
  }

  updateCredential(row: GitCredentialRow): void {
    this.db
      .prepare(
        'UPDATE git_credentials SET name = @name, username = @username, secret_sealed = @secret_sealed, known_hosts = @known_hosts, updated_at = @updated_at WHERE id = @id',
      )
      .run(row);
  }

  deleteCredential(id: string): void {
    this.db.prepare('DELETE FROM git_credentials WHERE id = ?').run(id);
  }

  credentialInUse(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM git_sources WHERE credential_id = ?').get(id) !== undefined;
  }

  hook(id: string): GitHookRow | null {
    return (this.db.prepare('SELECT * FROM git_hooks WHERE id = ?').get(id) as GitHookRow | undefined) ?? null;
  }

  hookForUrl(url: string): GitHookRow | null {
    return (this.db.prepare('SELECT * FROM git_hooks WHERE url = ?').get(url) as GitHookRow | undefined) ?? null;
  }

  insertHook(row: GitHookRow): void {
    this.db.prepare(insertSql('git_hooks', row)).run(row);
  }

  sources(): GitSourceRow[] {
    return this.db.prepare('SELECT * FROM git_sources ORDER BY environment, kind, name').all() as GitSourceRow[];
  }

  sourcesOfHook(hookId: string): GitSourceRow[] {
    return this.db.prepare('SELECT * FROM git_sources WHERE hook_id = ?').all(hookId) as GitSourceRow[];
  }

  source(environment: string, kind: GitOwnerKind, name: string): GitSourceRow | null {
    return (
      (this.db
        .prepare('SELECT * FROM git_sources WHERE environment = ? AND kind = ? AND name = ?')
        .get(environment, kind, name) as GitSourceRow | undefined) ?? null
    );
  }

  /** Inserts, or replaces the row of a project (or stack) whose folder is gone. */
  putSource(row: GitSourceRow): void {
    // The hook of a new source is made before its row: no unused hooks are dropped here.
    this.db.transaction(() => {
      this.db
        .prepare('DELETE FROM git_sources WHERE environment = ? AND kind = ? AND name = ?')
        .run(row.environment, row.kind, row.name);
      this.db.prepare(insertSql('git_sources', row)).run(row);
    })();
  }

  /** Sets some columns of one source. */
  patchSource(
    environment: string,
    kind: GitOwnerKind,
    name: string,
    patch: Partial<Omit<GitSourceRow, 'environment' | 'kind' | 'name' | 'url' | 'created_at'>>,
  ): void {
    const cols = Object.keys(patch);
    if (!cols.length) return;
    this.db
      .prepare(
        `UPDATE git_sources SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE environment = @environment AND kind = @kind AND name = @name`,
      )
      .run({ ...patch, environment, kind, name });
    this.dropUnusedHooks();
  }

  /** Forgets one source, and its repository's webhook once no source uses it. */
  deleteSource(environment: string, kind: GitOwnerKind, name: string): void {
    this.db.transaction(() => {
      this.db
        .prepare('DELETE FROM git_sources WHERE environment = ? AND kind = ? AND name = ?')
        .run(environment, kind, name);
      this.dropUnusedHooks();
    })();
  }

  private dropUnusedHooks(): void {
    this.db
      .prepare('DELETE FROM git_hooks WHERE id NOT IN (SELECT hook_id FROM git_sources WHERE hook_id IS NOT NULL)')
      .run();
  }
}
