import type { Db } from './database';

/** One agent environment's enrolment (see migration 12). */
export interface AgentRow {
  environment: string;
  token_hash: string | null;
  token_created_at: string | null;
  public_key: string | null;
  enrolled_at: string | null;
  revoked_at: string | null;
}

export class AgentsRepo {
  constructor(private readonly db: Db) {}

  get(environment: string): AgentRow | null {
    return (
      (this.db.prepare('SELECT * FROM environment_agents WHERE environment = ?').get(environment) as
        AgentRow | undefined) ?? null
    );
  }

  byPublicKey(publicKey: string): AgentRow | null {
    return (
      (this.db.prepare('SELECT * FROM environment_agents WHERE public_key = ?').get(publicKey) as
        AgentRow | undefined) ?? null
    );
  }

  /** A new one-time token for the environment; any enrolled key is dropped with it. */
  issueToken(environment: string, tokenHash: string, now: string): void {
    this.db
      .prepare(
        `INSERT INTO environment_agents (environment, token_hash, token_created_at, public_key, enrolled_at, revoked_at)
         VALUES (?, ?, ?, NULL, NULL, NULL)
         ON CONFLICT (environment) DO UPDATE SET token_hash = excluded.token_hash,
           token_created_at = excluded.token_created_at, public_key = NULL, enrolled_at = NULL`,
      )
      .run(environment, tokenHash, now);
  }

  /**
   * Spends a token: the environment it belongs to takes `publicKey`, in one statement, so a token
   * enrols at most one agent however many present it at once. Null when no unused token matches.
   */
  enrol(tokenHash: string, publicKey: string, now: string): string | null {
    const row = this.db
      .prepare(
        `UPDATE environment_agents SET token_hash = NULL, public_key = ?, enrolled_at = ?, revoked_at = NULL
         WHERE token_hash = ? RETURNING environment`,
      )
      .get(publicKey, now, tokenHash) as { environment: string } | undefined;
    return row?.environment ?? null;
  }

  /** Forgets the agent's key (and any unused token). */
  revoke(environment: string, now: string): void {
    this.db
      .prepare(
        'UPDATE environment_agents SET public_key = NULL, token_hash = NULL, revoked_at = ? WHERE environment = ?',
      )
      .run(now, environment);
  }

  remove(environment: string): void {
    this.db.prepare('DELETE FROM environment_agents WHERE environment = ?').run(environment);
  }
}
