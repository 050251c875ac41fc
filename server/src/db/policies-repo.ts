import type { Db } from './database';

export interface PolicyRow {
  environment: string;
  /** The policy as JSON (parsed and defaulted by the service: a rule added later reads as its default). */
  policy: string;
  updated_at: string;
  updated_by: string;
}

/** Each environment's policy for non-admins; an environment without a row runs on the defaults. */
export class PoliciesRepo {
  constructor(private readonly db: Db) {}

  get(environment: string): PolicyRow | null {
    return (
      (this.db.prepare('SELECT * FROM environment_policies WHERE environment = ?').get(environment) as
        PolicyRow | undefined) ?? null
    );
  }

  put(row: PolicyRow): void {
    this.db
      .prepare(
        `INSERT INTO environment_policies (environment, policy, updated_at, updated_by) VALUES (@environment, @policy, @updated_at, @updated_by)
         ON CONFLICT(environment) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
      )
      .run(row);
  }

  remove(environment: string): void {
    this.db.prepare('DELETE FROM environment_policies WHERE environment = ?').run(environment);
  }
}
