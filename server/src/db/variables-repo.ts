import type { TemplateVariable } from '@berth/contract';
import type { Db } from './database';

/** The `!name → replacement` template variables (seeded once by migration 2). */
export class VariablesRepo {
  constructor(private readonly db: Db) {}

  list(): TemplateVariable[] {
    return this.db
      .prepare('SELECT variable, replacement FROM template_variables ORDER BY id')
      .all() as TemplateVariable[];
  }

  /** Full replace in one transaction: the list afterwards is exactly `rows`, in that order. */
  replaceAll(rows: TemplateVariable[]): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM template_variables').run();
      const insert = this.db.prepare('INSERT INTO template_variables (variable, replacement) VALUES (?, ?)');
      for (const r of rows) insert.run(r.variable, r.replacement);
    })();
  }
}
