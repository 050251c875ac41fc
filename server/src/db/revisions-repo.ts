import type { Db } from './database';

interface RevisionRowBase {
  id: number;
  environment: string;
  rev: number;
  created_at: string;
  created_by: string;
  source: string;
  outcome: string;
  detail: string | null;
  rollback_of: number | null;
}

export interface ProjectRevisionRow extends RevisionRowBase {
  project: string;
  compose_file: string;
  compose: string;
  /** The .env, sealed (secret-box); null when the project had none. */
  env_sealed: string | null;
  /** JSON: RevisionImage[]. */
  digests: string;
  commit_sha: string | null;
}

export interface AppRevisionRow extends RevisionRowBase {
  app: string;
  image: string;
  digest: string | null;
  /** The container's full spec as JSON, sealed (it holds the environment values). */
  spec_sealed: string;
}

type NewRow<T> = Omit<T, 'id' | 'rev'>;

/** One kind of revision: projects or apps, keyed by environment and name. */
class RevisionTable<T extends RevisionRowBase> {
  constructor(
    private readonly db: Db,
    private readonly table: 'project_revisions' | 'app_revisions',
    private readonly key: 'project' | 'app',
  ) {}

  /** Adds a revision with the next number of its name and keeps only the newest `keep`; returns it. */
  add(row: NewRow<T>, keep: number): T {
    const name = (row as unknown as Record<string, string>)[this.key];
    return this.db.transaction(() => {
      const last = this.db
        .prepare(`SELECT MAX(rev) FROM ${this.table} WHERE environment = ? AND ${this.key} = ?`)
        .pluck()
        .get(row.environment, name) as number | null;
      const full = { ...row, rev: (last ?? 0) + 1 } as Record<string, unknown>;
      const cols = Object.keys(full);
      const id = this.db
        .prepare(`INSERT INTO ${this.table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`)
        .run(full).lastInsertRowid;
      this.db
        .prepare(
          `DELETE FROM ${this.table} WHERE environment = ? AND ${this.key} = ? AND id NOT IN
             (SELECT id FROM ${this.table} WHERE environment = ? AND ${this.key} = ? ORDER BY rev DESC LIMIT ?)`,
        )
        .run(row.environment, name, row.environment, name, Math.max(1, keep));
      return this.db.prepare(`SELECT * FROM ${this.table} WHERE id = ?`).get(id) as T;
    })();
  }

  /** Moves a name's revisions to another name; what that name had before (a container gone) is dropped. */
  rename(environment: string, from: string, to: string): void {
    this.db.transaction(() => {
      this.db.prepare(`DELETE FROM ${this.table} WHERE environment = ? AND ${this.key} = ?`).run(environment, to);
      this.db
        .prepare(`UPDATE ${this.table} SET ${this.key} = ? WHERE environment = ? AND ${this.key} = ?`)
        .run(to, environment, from);
    })();
  }

  list(environment: string, name: string): T[] {
    return this.db
      .prepare(`SELECT * FROM ${this.table} WHERE environment = ? AND ${this.key} = ? ORDER BY rev DESC`)
      .all(environment, name) as T[];
  }

  get(environment: string, name: string, rev: number): T | null {
    return (
      (this.db
        .prepare(`SELECT * FROM ${this.table} WHERE environment = ? AND ${this.key} = ? AND rev = ?`)
        .get(environment, name, rev) as T | undefined) ?? null
    );
  }
}

/** Recorded deploys of compose projects and form-deployed apps (issue 34). */
export class RevisionsRepo {
  readonly projects: RevisionTable<ProjectRevisionRow>;
  readonly apps: RevisionTable<AppRevisionRow>;

  constructor(db: Db) {
    this.projects = new RevisionTable(db, 'project_revisions', 'project');
    this.apps = new RevisionTable(db, 'app_revisions', 'app');
  }
}
