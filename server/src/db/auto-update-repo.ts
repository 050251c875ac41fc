import type { AutoUpdateItem, AutoUpdateMode, AutoUpdateOverride, AutoUpdateRun, VersionPolicy } from '@berth/contract';
import type { Db } from './database';

interface PolicyRow {
  enabled: number | null;
  mode: string | null;
  schedule: string | null;
  settle_seconds: number | null;
  version_policy: string | null;
}
interface RunRow {
  id: number;
  trigger: string;
  started_at: string;
  finished_at: string | null;
  results: string;
}

const toRun = (r: RunRow): AutoUpdateRun => ({
  id: r.id,
  trigger: r.trigger,
  started_at: r.started_at,
  finished_at: r.finished_at,
  results: JSON.parse(r.results) as AutoUpdateItem[],
});

/** What a stored policy belongs to: the environment ('global', target ''), an app, or a compose project. */
export type PolicyScope = 'global' | 'app' | 'project';

/**
 * Auto-update policies, remembered bad digests and runs of one environment (migration 8).
 * Bad digests of compose services are kept under `<project>/<service>` (app names have no slash);
 * a version tag that failed the gate is kept the same way, as its `repo:tag` (migration 19 added
 * the version policy).
 */
export class AutoUpdateRepo {
  constructor(
    private readonly db: Db,
    private readonly env: string,
  ) {}

  /** The stored policy of `scope`/`target` (global: target ''); null when none is stored. */
  policy(scope: PolicyScope, target: string): AutoUpdateOverride | null {
    const row = this.db
      .prepare(
        'SELECT enabled, mode, schedule, settle_seconds, version_policy FROM auto_update_policies WHERE env = ? AND scope = ? AND target = ?',
      )
      .get(this.env, scope, target) as PolicyRow | undefined;
    if (!row) return null;
    return {
      enabled: row.enabled === null ? null : row.enabled === 1,
      mode: row.mode as AutoUpdateMode | null,
      schedule: row.schedule,
      settle_seconds: row.settle_seconds,
      version_policy: row.version_policy as VersionPolicy | null,
    };
  }

  /** Every app's (or project's) override, by name (for the scheduler). */
  policies(scope: 'app' | 'project'): Map<string, AutoUpdateOverride> {
    const rows = this.db
      .prepare('SELECT target FROM auto_update_policies WHERE env = ? AND scope = ?')
      .pluck()
      .all(this.env, scope) as string[];
    return new Map(rows.map((t) => [t, this.policy(scope, t)!]));
  }

  setPolicy(scope: PolicyScope, target: string, p: AutoUpdateOverride): void {
    this.db
      .prepare(
        `INSERT INTO auto_update_policies (env, scope, target, enabled, mode, schedule, settle_seconds, version_policy) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (env, scope, target) DO UPDATE SET enabled = excluded.enabled, mode = excluded.mode, schedule = excluded.schedule, settle_seconds = excluded.settle_seconds, version_policy = excluded.version_policy`,
      )
      .run(
        this.env,
        scope,
        target,
        p.enabled === null ? null : p.enabled ? 1 : 0,
        p.mode,
        p.schedule,
        p.settle_seconds,
        p.version_policy ?? null,
      );
  }

  isBadDigest(target: string, digest: string): boolean {
    return (
      this.db
        .prepare('SELECT 1 FROM auto_update_bad_digests WHERE env = ? AND target = ? AND digest = ?')
        .get(this.env, target, digest) !== undefined
    );
  }

  rememberBadDigest(target: string, digest: string): void {
    this.db
      .prepare('INSERT OR IGNORE INTO auto_update_bad_digests (env, target, digest, recorded_at) VALUES (?, ?, ?, ?)')
      .run(this.env, target, digest, new Date().toISOString());
  }

  startRun(trigger: string): number {
    const info = this.db
      .prepare("INSERT INTO auto_update_runs (env, trigger, started_at, results) VALUES (?, ?, ?, '[]')")
      .run(this.env, trigger, new Date().toISOString());
    return Number(info.lastInsertRowid);
  }

  saveResults(id: number, results: AutoUpdateItem[], finished: boolean): void {
    this.db
      .prepare('UPDATE auto_update_runs SET results = ?, finished_at = ? WHERE id = ?')
      .run(JSON.stringify(results), finished ? new Date().toISOString() : null, id);
  }

  run(id: number): AutoUpdateRun | null {
    const row = this.db
      .prepare('SELECT id, trigger, started_at, finished_at, results FROM auto_update_runs WHERE env = ? AND id = ?')
      .get(this.env, id) as RunRow | undefined;
    return row ? toRun(row) : null;
  }

  /** Drops this environment's runs beyond the newest `keep` and those started before `before` (ISO); returns how many went. */
  pruneRuns(keep: number, before: string): number {
    const old = this.db
      .prepare('DELETE FROM auto_update_runs WHERE env = ? AND started_at < ? AND finished_at IS NOT NULL')
      .run(this.env, before).changes;
    const cut = this.db
      .prepare('SELECT id FROM auto_update_runs WHERE env = ? ORDER BY id DESC LIMIT 1 OFFSET ?')
      .pluck()
      .get(this.env, keep) as number | undefined;
    const over =
      cut === undefined
        ? 0
        : this.db.prepare('DELETE FROM auto_update_runs WHERE env = ? AND id <= ?').run(this.env, cut).changes;
    return old + over;
  }

  runs(limit: number): AutoUpdateRun[] {
    return (
      this.db
        .prepare(
          'SELECT id, trigger, started_at, finished_at, results FROM auto_update_runs WHERE env = ? ORDER BY id DESC LIMIT ?',
        )
        .all(this.env, limit) as RunRow[]
    ).map(toRun);
  }
}
