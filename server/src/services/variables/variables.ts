import type { TemplateVariable } from '@berth/contract';
import type { VariablesRepo } from '../../db/variables-repo';

/**
 * A `!name` token: the `!` starts the text or follows a character that is not part of a word
 * (so `pass!word` is left alone), and the name runs to the next non-word character.
 */
const TOKEN_BODY = '[A-Za-z0-9_]+';
const BEFORE = '(?<![A-Za-z0-9_!])';
const AFTER = '(?![A-Za-z0-9_])';
const ANY_TOKEN = new RegExp(`${BEFORE}!${TOKEN_BODY}${AFTER}`, 'g');

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface Substituter {
  /** Replaces every known whole token in one pass (a replacement is never substituted again). */
  apply(text: string): string;
  /** The `!name` tokens in `text` that are not defined. */
  unknown(text: string): string[];
}

/** Longest name first, so no name can shadow a longer one that starts the same way. */
export function makeSubstituter(variables: TemplateVariable[]): Substituter {
  const map = new Map(variables.map((v) => [v.variable, v.replacement]));
  const names = [...map.keys()].sort((a, b) => b.length - a.length);
  const pattern = names.length ? new RegExp(`${BEFORE}(?:${names.map(escapeRegExp).join('|')})${AFTER}`, 'g') : null;
  return {
    apply: (text) => (pattern ? text.replace(pattern, (m) => map.get(m) ?? m) : text),
    unknown: (text) => [...new Set(text.match(ANY_TOKEN) ?? [])].filter((t) => !map.has(t)),
  };
}

export class VariablesService {
  constructor(private readonly repo: VariablesRepo) {}

  list(): TemplateVariable[] {
    return this.repo.list();
  }

  /** The body was validated by the contract (names, no duplicates); this stores it as the whole list. */
  save(rows: TemplateVariable[]): TemplateVariable[] {
    this.repo.replaceAll(rows);
    return this.repo.list();
  }

  substituter(): Substituter {
    return makeSubstituter(this.repo.list());
  }
}
