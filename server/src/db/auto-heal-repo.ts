import type { AutoHealOverride } from '@berth/contract';
import type { Db } from './database';

interface PolicyRow {
  enabled: number | null;
  checks: number | null;
  max_restarts: number | null;
  backoff_seconds: number | null;
}

/** What a stored auto-heal policy belongs to: the global default (env '', target ''), an app, or a compose service. */
export type AutoHealScope = 'global' | 'app' | 'service';

/** Auto-heal policies and restarts (migration 20) and give-ups (migration 22). Compose services are kept under `<project>/<service>`. */
export class AutoHealRepo {
  constructor(private readonly db: Db) {}

  policy(env: string, scope: AutoHealScope, target: string): AutoHealOverride | null {
    const row = this.db
      .prepare(
        'SELECT enabled, checks, max_restarts, backoff_seconds FROM auto_heal_policies WHERE env = ? AND scope = ? AND target = ?',
      )
      .get(env, scope, target) as PolicyRow | undefined;
    if (!row) return null;
    return { ...row, enabled: row.enabled === null ? null : row.enabled === 1 };
  }

  setPolicy(env: string, scope: AutoHealScope, target: string, p: AutoHealOverride): void {
    this.db
      .prepare(
        `INSERT INTO auto_heal_policies (env, scope, target, enabled, checks, max_restarts, backoff_seconds) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (env, scope, target) DO UPDATE SET enabled = excluded.enabled, checks = excluded.checks, max_restarts = excluded.max_restarts, backoff_seconds = excluded.backoff_seconds`,
      )
      .run(
        env,
        scope,
        target,
        p.enabled === null ? null : p.enabled ? 1 : 0,
        p.checks,
        p.max_restarts,
        p.backoff_seconds,
      );
  }

  addRestart(env: string, target: string, time: number): void {
    this.db.prepare('INSERT INTO auto_heal_restarts (env, target, time) VALUES (?, ?, ?)').run(env, target, time);
  }

  /** Restart times (ms) of `target` since `since`, oldest first; older rows of every target are dropped. */
  restarts(env: string, target: string, since: number): number[] {
    this.db.prepare('DELETE FROM auto_heal_restarts WHERE time < ?').run(since);
    return this.db
      .prepare('SELECT time FROM auto_heal_restarts WHERE env = ? AND target = ? AND time >= ? ORDER BY time')
      .pluck()
      .all(env, target, since) as number[];
  }

  /** When auto-heal gave up on `target` (ms), or null. */
  gaveUp(env: string, target: string): number | null {
    const t = this.db
      .prepare('SELECT time FROM auto_heal_gave_up WHERE env = ? AND target = ?')
      .pluck()
      .get(env, target) as number | undefined;
    return t ?? null;
  }

  setGaveUp(env: string, target: string, time: number): void {
    this.db
      .prepare(
        'INSERT INTO auto_heal_gave_up (env, target, time) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET time = excluded.time',
      )
      .run(env, target, time);
  }

  /** Forgets the give-up; with `restarts`, the target's restarts too (its hourly count starts over). */
  clearGaveUp(env: string, target: string, restarts = false): void {
    this.db.prepare('DELETE FROM auto_heal_gave_up WHERE env = ? AND target = ?').run(env, target);
    if (restarts) this.db.prepare('DELETE FROM auto_heal_restarts WHERE env = ? AND target = ?').run(env, target);
  }
}
