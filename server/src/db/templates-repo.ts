import { TemplateItemData, type Template, type TemplateItem } from '@berth/contract';
import type { Db } from './database';

interface TemplateRow {
  id: number;
  title: string;
  url: string;
  created_at: string;
  updated_at: string;
  item_count: number;
}
interface ItemRow {
  id: number;
  template_id: number;
  title: string;
  image: string;
  data: string;
}

const SELECT_TEMPLATE = `
  SELECT t.id, t.title, t.url, t.created_at, t.updated_at,
         (SELECT COUNT(*) FROM template_items i WHERE i.template_id = t.id) AS item_count
  FROM templates t`;

function toItem(row: ItemRow): TemplateItem {
  return { ...TemplateItemData.parse(JSON.parse(row.data)), id: row.id, template_id: row.template_id };
}

/** Template sources and their items. Items are stored as one validated JSON document each. */
export class TemplatesRepo {
  constructor(private readonly db: Db) {}

  list(): Template[] {
    return this.db.prepare(`${SELECT_TEMPLATE} ORDER BY t.title COLLATE NOCASE`).all() as TemplateRow[];
  }

  get(id: number): Template | undefined {
    return this.db.prepare(`${SELECT_TEMPLATE} WHERE t.id = ?`).get(id) as TemplateRow | undefined;
  }

  /** Which of title and url are already taken (title case-insensitively), ignoring template `exceptId`. */
  taken(title: string, url: string, exceptId = 0): { title: boolean; url: boolean } {
    const row = this.db
      .prepare('SELECT MAX(title = ? COLLATE NOCASE) AS title, MAX(url = ?) AS url FROM templates WHERE id != ?')
      .get(title, url, exceptId) as { title: number | null; url: number | null };
    return { title: row.title === 1, url: row.url === 1 };
  }

  items(templateId: number): TemplateItem[] {
    const rows = this.db
      .prepare('SELECT * FROM template_items WHERE template_id = ? ORDER BY position')
      .all(templateId) as ItemRow[];
    return rows.map(toItem);
  }

  item(id: number): TemplateItem | undefined {
    const row = this.db.prepare('SELECT * FROM template_items WHERE id = ?').get(id) as ItemRow | undefined;
    return row && toItem(row);
  }

  /** Inserts the source and all its items in one transaction. */
  create(title: string, url: string, items: TemplateItemData[], now: string): number {
    return this.db.transaction(() => {
      const { lastInsertRowid } = this.db
        .prepare('INSERT INTO templates (title, url, created_at, updated_at) VALUES (?, ?, ?, ?)')
        .run(title, url, now, now);
      const id = Number(lastInsertRowid);
      this.insertItems(
        id,
        items.map((data, position) => ({ data, position })),
      );
      return id;
    })();
  }

  /**
   * Replaces the items of a source. An item whose title and image are unchanged keeps its id
   * (pages and bookmarks that name it stay valid); the rest are inserted or deleted.
   */
  replaceItems(templateId: number, items: TemplateItemData[], now: string): void {
    this.db.transaction(() => {
      const old = this.db
        .prepare('SELECT id, title, image FROM template_items WHERE template_id = ?')
        .all(templateId) as Omit<ItemRow, 'data' | 'template_id'>[];
      const byKey = new Map<string, number[]>();
      for (const o of old) byKey.set(`${o.title}\0${o.image}`, [...(byKey.get(`${o.title}\0${o.image}`) ?? []), o.id]);
      const update = this.db.prepare('UPDATE template_items SET position = ?, data = ? WHERE id = ?');
      const fresh: { data: TemplateItemData; position: number }[] = [];
      const kept = new Set<number>();
      items.forEach((data, position) => {
        const id = byKey.get(`${data.title}\0${data.image}`)?.shift();
        if (id === undefined) fresh.push({ data, position });
        else {
          kept.add(id);
          update.run(position, JSON.stringify(data), id);
        }
      });
      const remove = this.db.prepare('DELETE FROM template_items WHERE id = ?');
      for (const o of old) if (!kept.has(o.id)) remove.run(o.id);
      this.insertItems(templateId, fresh);
      this.db.prepare('UPDATE templates SET updated_at = ? WHERE id = ?').run(now, templateId);
    })();
  }

  delete(id: number): void {
    this.db.prepare('DELETE FROM templates WHERE id = ?').run(id);
  }

  private insertItems(templateId: number, items: { data: TemplateItemData; position: number }[]): void {
    const insert = this.db.prepare(
      'INSERT INTO template_items (template_id, position, title, image, data) VALUES (?, ?, ?, ?, ?)',
    );
    for (const { data, position } of items)
      insert.run(templateId, position, data.title, data.image, JSON.stringify(data));
  }
}
