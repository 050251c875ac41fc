import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { parseDocument } from 'yaml';
import type { PolicyFeature, PolicyViolation } from '@berth/contract';
import { composePolicyFeatures, composeSchemaProblem, locate } from '@berth/contract/compose-schema';

/** The environment's policy for the signed-in user (an empty answer for an admin). */
export type PolicyJudge = (features: readonly PolicyFeature[]) => PolicyViolation[];

// Its own module, imported only by the editor: the schema's validator comes with the editor's chunk.

const MAX_MARKS = 5;

/**
 * What the server would refuse, marked where it is written: YAML errors, else the first place the
 * file breaks the Compose Specification's schema (the same check as the save's, run here), and
 * what the role policy refuses (binds, privileged, host namespaces...), in the rule's own words.
 */
export function composeDiagnostics(text: string, judge?: PolicyJudge, project?: string): Diagnostic[] {
  if (!text.trim()) return [];
  const end = text.length;
  const mark = (from: number, to: number, source: string, message: string): Diagnostic => {
    const start = Math.min(Math.max(from, 0), end);
    return { from: start, to: Math.min(Math.max(to, start), end), severity: 'error', source, message };
  };
  const doc = parseDocument(text, { merge: true, uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length)
    return doc.errors
      .slice(0, MAX_MARKS)
      .map((e) => mark(e.pos[0], e.pos[1], 'YAML', e.message.replace(/ at line \d+, column \d+.*$/s, '')));
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch {
    return []; // too many aliases: the form's own check says so
  }
  const problem = composeSchemaProblem(doc, data);
  if (problem) {
    const span = problem.span ?? { from: 0, to: 0 };
    return [mark(span.from, span.to, 'Compose Specification', `${problem.path}: ${problem.message}`)];
  }
  if (!judge || typeof data !== 'object' || data === null) return [];
  return judge(composePolicyFeatures(data as Record<string, unknown>, { project }))
    .slice(0, MAX_MARKS)
    .map((v) => {
      const span = (v.at && locate(doc, v.at)) ?? { from: 0, to: 0 };
      return mark(span.from, span.to, 'Policy', v.message);
    });
}

/** The editor's inline marks (and their gutter), checked shortly after typing stops; `project` names the file's volumes. */
export const composeLint = (judge?: PolicyJudge, project?: string) => [
  linter((view) => composeDiagnostics(view.state.doc.toString(), judge, project), { delay: 400 }),
  lintGutter(),
];
