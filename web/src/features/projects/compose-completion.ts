import type { CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { COMPOSE_SERVICE_KEYS, COMPOSE_TOP_LEVEL_KEYS } from '@berth/contract';

const indentOf = (line: string) => line.length - line.trimStart().length;
const keyOf = (line: string) => /^\s*([A-Za-z0-9_.-]+)\s*:/.exec(line)?.[1] ?? null;

/**
 * Which keys fit where the cursor is: the text before it (`lines`, the current line last, cut at
 * the cursor). Top level → the file's keys; directly inside a service → a service's keys.
 */
export function composeKeysAt(lines: string[]): readonly string[] | null {
  const current = lines[lines.length - 1] ?? '';
  if (!/^\s*[A-Za-z0-9_]*$/.test(current)) return null;
  const indent = indentOf(current);
  if (indent === 0) return COMPOSE_TOP_LEVEL_KEYS;
  // The nearest lines above with less indentation: the parent (a service's name) and its parent (services:).
  const parents: string[] = [];
  let limit = indent;
  for (let i = lines.length - 2; i >= 0 && parents.length < 2; i--) {
    const line = lines[i]!;
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (indentOf(line) < limit) {
      parents.push(line);
      limit = indentOf(line);
    }
  }
  const [service, top] = parents;
  if (service && top && indentOf(top) === 0 && keyOf(top) === 'services' && keyOf(service)) return COMPOSE_SERVICE_KEYS;
  return null;
}

/** CodeMirror completion source for compose files: the specification's keys where they belong. */
export function composeCompletion(context: CompletionContext): CompletionResult | null {
  const word = context.matchBefore(/[A-Za-z0-9_]*/);
  if (!word || (word.from === word.to && !context.explicit)) return null;
  const before = context.state.sliceDoc(0, context.pos).split('\n');
  const keys = composeKeysAt(before);
  if (!keys) return null;
  return { from: word.from, options: keys.map((label) => ({ label, type: 'property', apply: `${label}: ` })), validFor: /^[A-Za-z0-9_]*$/ };
}
