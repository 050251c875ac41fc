import type { CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { hoverTooltip, type Tooltip } from '@uiw/react-codemirror';
import { composeSchema, descriptionAt, keysAt, type DataPath } from '@berth/contract/compose-schema';

// Its own module, imported only by the editor: the schema comes with the editor's chunk.

/** A line's parts: indentation, whether it starts a list item, where its key starts, its key. */
function lineParts(line: string): { indent: number; item: boolean; keyCol: number; key: string | null } | null {
  const m = /^(\s*)(-\s+)?(?:(["']?)([^\s:#"'][^:#"']*?)\3\s*:(?:\s|$))?/.exec(line);
  if (!m || !line.trim() || line.trimStart().startsWith('#')) return null;
  const indent = m[1]!.length;
  return { indent, item: !!m[2], keyCol: indent + (m[2]?.length ?? 0), key: m[4] ?? null };
}

/**
 * The path of mapping keys (and list items, as 0) that leads to a line indented by `indent`
 * (where its `- ` starts, for a list item) after `above`, the lines before it: the nearest less
 * indented line is its parent, and so on. Indentation is enough, so a file that does not parse
 * yet still gets help.
 */
export function parentPath(above: readonly string[], indent: number, item: boolean): (string | number)[] {
  const path: (string | number)[] = item ? [0] : [];
  let limit = indent;
  for (let i = above.length - 1; i >= 0 && limit > 0; i--) {
    const p = lineParts(above[i]!);
    if (!p) continue;
    if (p.item && p.key && p.keyCol < limit) path.unshift(0, p.key);
    else if (p.indent >= limit) continue;
    else if (p.item) path.unshift(0);
    else if (p.key) path.unshift(p.key);
    else return [];
    limit = p.indent;
  }
  return path;
}

/** Which keys fit where the cursor is: the text before it (`lines`, the current line last, cut at the cursor). */
export function composeKeysAt(lines: readonly string[]): string[] | null {
  const current = lines[lines.length - 1] ?? '';
  const m = /^(\s*)(-\s+)?[A-Za-z0-9_]*$/.exec(current);
  if (!m) return null;
  const keys = keysAt(composeSchema(), parentPath(lines.slice(0, -1), m[1]!.length, !!m[2]));
  return keys.length ? keys : null;
}

/** The path of the key under the cursor at `pos` of `text`, or null when the cursor is not on a key. */
export function keyPathAt(text: string, pos: number): { path: DataPath; from: number; to: number } | null {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  const lineEnd = text.indexOf('\n', pos);
  const line = text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  const p = lineParts(line);
  if (!p?.key) return null;
  const from = lineStart + line.indexOf(p.key, p.keyCol);
  const to = from + p.key.length;
  if (pos < from || pos > to) return null;
  const above = text.slice(0, lineStart).split('\n').slice(0, -1);
  return { path: [...parentPath(above, p.indent, p.item), p.key], from, to };
}

/** CodeMirror completion source for compose files: the specification's keys where they belong. */
export function composeCompletion(context: CompletionContext): CompletionResult | null {
  const word = context.matchBefore(/[A-Za-z0-9_]*/);
  if (!word || (word.from === word.to && !context.explicit)) return null;
  const keys = composeKeysAt(context.state.sliceDoc(0, context.pos).split('\n'));
  if (!keys) return null;
  return {
    from: word.from,
    options: keys.map((label) => ({ label, type: 'property', apply: `${label}: ` })),
    validFor: /^[A-Za-z0-9_]*$/,
  };
}

/** Hover on a key: its description from the specification. */
export const composeHover = hoverTooltip((view, pos): Tooltip | null => {
  const at = keyPathAt(view.state.doc.toString(), pos);
  const text = at && descriptionAt(composeSchema(), at.path);
  if (!at || !text) return null;
  return {
    pos: at.from,
    end: at.to,
    above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'cm-compose-doc';
      dom.setAttribute('role', 'tooltip');
      dom.style.cssText = 'max-width: 28rem; padding: 4px 8px; font-size: 12px;';
      dom.textContent = text;
      return { dom };
    },
  };
});
