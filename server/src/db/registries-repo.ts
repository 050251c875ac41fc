import type { Db } from './database';

/** One stored registry credential; `password_sealed` is sealed by lib/secret-box. */
export interface RegistryRow {
  id: number;
  name: string;
  /** host[:port] as the image references name it (`ghcr.io`, `docker.io`, `127.0.0.1:5000`). */
  server_address: string;
  username: string | null;
  password_sealed: string | null;
  ca_cert: string | null;
  /** JSON array of environment ids, or null: every environment may use it. */
  environments: string | null;
  created_at: string;
  updated_at: string;
}

export type NewRegistryRow = Omit<RegistryRow, 'id'>;

const COLUMNS = [
  'name',
  'server_address',
  'username',
  'password_sealed',
  'ca_cert',
  'environments',
  'created_at',
  'updated_at',
] as const;

export class RegistriesRepo {
  constructor(private readonly db: Db) {}

  list(): RegistryRow[] {
    return this.db.prepare('SELECT * FROM registries ORDER BY name COLLATE NOCASE, id').all() as RegistryRow[];
  }

  get(id: number): RegistryRow | null {
    return (this.db.prepare('SELECT * FROM registries WHERE id = ?').get(id) as RegistryRow | undefined) ?? null;
  }

  nameTaken(name: string, exceptId: number | null): boolean {
    return this.db.prepare('SELECT 1 FROM registries WHERE name = ? AND id IS NOT ?').get(name, exceptId) !== undefined;
  }

  insert(row: NewRegistryRow): number {
    const res = this.db
      .prepare(`INSERT INTO registries (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`)
      .run(row);
    return Number(res.lastInsertRowid);
  }

  /** Writes every column but id and created_at. */
  update(row: RegistryRow): void {
    const set = COLUMNS.filter((c) => c !== 'created_at').map((c) => `${c} = @${c}`);
    this.db.prepare(`UPDATE registries SET ${set.join(', ')} WHERE id = @id`).run(row);
  }

  remove(id: number): boolean {
    return this.db.prepare('DELETE FROM registries WHERE id = ?').run(id).changes > 0;
  }
}
