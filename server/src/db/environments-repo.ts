import type { Db } from './database';

/** One stored environment; the `*_sealed` columns are secrets sealed by lib/secret-box. */
export interface EnvironmentRow {
  id: string;
  name: string;
  url: string;
  kind: 'socket' | 'tcp' | 'ssh' | 'agent';
  tls_ca: string | null;
  tls_cert: string | null;
  tls_key_sealed: string | null;
  ssh_user: string | null;
  ssh_key_sealed: string | null;
  ssh_passphrase_sealed: string | null;
  ssh_host_key: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = [
  'id',
  'name',
  'url',
  'kind',
  'tls_ca',
  'tls_cert',
  'tls_key_sealed',
  'ssh_user',
  'ssh_key_sealed',
  'ssh_passphrase_sealed',
  'ssh_host_key',
  'created_at',
  'updated_at',
] as const;

export class EnvironmentsRepo {
  constructor(private readonly db: Db) {}

  list(): EnvironmentRow[] {
    return this.db.prepare('SELECT * FROM environments ORDER BY name COLLATE NOCASE').all() as EnvironmentRow[];
  }

  get(id: string): EnvironmentRow | null {
    return (this.db.prepare('SELECT * FROM environments WHERE id = ?').get(id) as EnvironmentRow | undefined) ?? null;
  }

  nameTaken(name: string, exceptId: string | null): boolean {
    return (
      this.db.prepare('SELECT 1 FROM environments WHERE name = ? AND id IS NOT ?').get(name, exceptId) !== undefined
    );
  }

  insert(row: EnvironmentRow): void {
    this.db
      .prepare(`INSERT INTO environments (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`)
      .run(row);
  }

  /** Writes every column but id and created_at. */
  update(row: EnvironmentRow): void {
    const set = COLUMNS.filter((c) => c !== 'id' && c !== 'created_at').map((c) => `${c} = @${c}`);
    this.db.prepare(`UPDATE environments SET ${set.join(', ')} WHERE id = @id`).run(row);
  }

  remove(id: string): boolean {
    return this.db.prepare('DELETE FROM environments WHERE id = ?').run(id).changes > 0;
  }
}
