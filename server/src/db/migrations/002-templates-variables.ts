import type { Migration } from './index';

export default {
  version: 2,
  // Template sources, their items (one JSON document each, normalised at import) and the
  // !variables. Ids are never reused (AUTOINCREMENT), so a bookmarked item id cannot come to
  // mean another item. The variables are seeded here, once per database: an emptied list stays empty.
  sql: `
      CREATE TABLE templates (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        title TEXT NOT NULL UNIQUE COLLATE NOCASE,
        url TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE template_items (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        template_id INTEGER NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        title TEXT NOT NULL,
        image TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX template_items_template ON template_items(template_id, position);
      CREATE TABLE template_variables (
        id INTEGER PRIMARY KEY,
        variable TEXT NOT NULL UNIQUE,
        replacement TEXT NOT NULL
      );
      INSERT INTO template_variables (variable, replacement) VALUES
        ('!config', '/berth/AppData/Config'),
        ('!data', '/berth/AppData/Data'),
        ('!media', '/berth/Media/'),
        ('!downloads', '/berth/Downloads/'),
        ('!music', '/berth/Media/Music'),
        ('!playlists', '/berth/Media/Playlists'),
        ('!podcasts', '/berth/Media/Podcasts'),
        ('!books', '/berth/Media/Books'),
        ('!comics', '/berth/Media/Comics'),
        ('!tv', '/berth/Media/TV'),
        ('!movies', '/berth/Media/Movies'),
        ('!pictures', '/berth/Media/Photos'),
        ('!localtime', '/etc/localtime'),
        ('!logs', '/berth/AppData/Logs'),
        ('!PUID', '1000'),
        ('!PGID', '100');
    `,
} satisfies Migration;
