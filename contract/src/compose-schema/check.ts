import type { Document } from 'yaml';
import { locate, type DataPath, type Span } from './locate';
import { validate } from './validate.generated';

/** An error of ajv's generated validator (the fields this module reads). */
interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** The first way a compose file breaks the Compose Specification's schema: where and what. */
export interface SchemaProblem {
  /** The path in the file, e.g. services.web.ports[0]. */
  path: string;
  message: string;
  /** Where it is written (offsets into the text). */
  span: Span | null;
}

const TYPE_WORDS: Record<string, string> = {
  array: 'a list',
  object: 'a mapping',
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  null: 'empty',
};

const pointerPath = (pointer: string): (string | number)[] =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));

export const formatPath = (path: DataPath): string =>
  path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('') || 'the top level';

function explain(e: AjvError): { path: (string | number)[]; message: string; onKey: boolean } {
  const path = pointerPath(e.instancePath);
  const p = e.params;
  switch (e.keyword) {
    case 'additionalProperties':
      return {
        path: [...path, String(p.additionalProperty)],
        message: `"${String(p.additionalProperty)}" is not a key the Compose Specification has here`,
        onKey: true,
      };
    case 'type': {
      const words = [
        ...new Set(
          String(p.type)
            .split(',')
            .filter((t) => t !== 'string' || !String(p.type).match(/boolean|number|integer/))
            .map((t) => TYPE_WORDS[t] ?? t),
        ),
      ];
      return { path, message: `must be ${words.join(' or ')}`, onKey: false };
    }
    case 'required':
      return { path, message: `needs "${String(p.missingProperty)}"`, onKey: false };
    case 'enum':
      return { path, message: `must be one of: ${(p.allowedValues as unknown[]).join(', ')}`, onKey: false };
    case 'anyOf':
      return { path, message: 'is none of the forms the Compose Specification allows here', onKey: false };
    case 'minimum':
      return { path, message: `must be at least ${String(p.limit)}`, onKey: false };
    case 'maximum':
      return { path, message: `must be at most ${String(p.limit)}`, onKey: false };
    default:
      return { path, message: `breaks the schema's "${e.keyword}" rule`, onKey: false };
  }
}

/** The most telling error: the deepest; at one depth, a wrong key or value before "wrong type" and before "none of the forms". */
function best(errors: AjvError[]): AjvError {
  const rank = (e: AjvError) => explain(e).path.length * 3 + (e.keyword === 'anyOf' ? 0 : e.keyword === 'type' ? 1 : 2);
  return errors.reduce((a, b) => (rank(b) > rank(a) ? b : a));
}

/**
 * Checks resolved compose data (YAML parsed with merge keys, aliases expanded) against the
 * Compose Specification's schema; `doc` is the parsed YAML it came from, for the position.
 */
export function composeSchemaProblem(doc: Document, data: unknown): SchemaProblem | null {
  if (validate(data)) return null;
  const errors = (validate.errors ?? []) as AjvError[];
  if (!errors.length) return null;
  const { path, message, onKey } = explain(best(errors));
  return { path: formatPath(path), message, span: locate(doc, path, { key: onKey }) };
}
