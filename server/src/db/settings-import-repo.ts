import type { ExportedTemplate, TemplateVariable } from '@berth/contract';
import type { Db } from './database';
import { TemplatesRepo } from './templates-repo';
import { VariablesRepo } from './variables-repo';

/** Replaces every template source (with its items) and every variable at once, for a settings import. */
export class SettingsImportRepo {
  private readonly templates: TemplatesRepo;
  private readonly variables: VariablesRepo;

  constructor(private readonly db: Db) {
    this.templates = new TemplatesRepo(db);
    this.variables = new VariablesRepo(db);
  }

  /**
   * One transaction (the repositories' own transactions nest inside it as savepoints): either the
   * database holds exactly the imported sources and variables afterwards, or nothing changed.
   */
  replaceAll(templates: ExportedTemplate[], variables: TemplateVariable[]): void {
    this.db.transaction(() => {
      for (const t of this.templates.list()) this.templates.delete(t.id);
      const setUpdated = this.db.prepare('UPDATE templates SET updated_at = ? WHERE id = ?');
      for (const t of templates) {
        const id = this.templates.create(t.title, t.url, t.items, t.created_at);
        setUpdated.run(t.updated_at, id);
      }
      this.variables.replaceAll(variables);
    })();
  }
}
