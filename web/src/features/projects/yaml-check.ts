import { parseDocument } from 'yaml';

// Its own module so only the editor's chunk loads the YAML parser.

/**
 * The first YAML problem with its line and column, as the server would report it, so it shows
 * before saving. Aliases are capped like on the server so a pasted "billion laughs" cannot
 * freeze the page.
 */
export function yamlProblem(content: string): string | null {
  if (!content.trim()) return 'The file is empty.';
  const doc = parseDocument(content, { prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const message = first.message.replace(/ at line \d+, column \d+.*$/s, '');
    return pos ? `Line ${pos.line}, column ${pos.col}: ${message}` : message;
  }
  try {
    const data: unknown = doc.toJS({ maxAliasCount: 100 });
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      return 'The top level must be a mapping (services:, networks:, volumes: ...).';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return null;
}
