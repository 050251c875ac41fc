/**
 * One command line and its arguments, both ways, as a POSIX shell splits words (no variables,
 * globs or pipes: a container's command is run without a shell). Templates give `command` as a
 * line; the deploy form shows one line with the argument list as its exact view.
 */

/** Splits a line into words: whitespace separates, quotes group, a backslash escapes. */
export function parseCommandLine(line: string): string[] | { error: string } {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
    } else if (ch === '\\' && i + 1 < line.length && (quote === null || '"\\$`'.includes(line[i + 1]!))) {
      word = (word ?? '') + line[++i];
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + ch;
  }
  if (quote) return { error: `The command has an unclosed ${quote === '"' ? 'double' : 'single'} quote.` };
  if (word !== null) words.push(word);
  return words;
}

/** The line that parseCommandLine splits back into exactly `args` (a word with anything special is single-quoted). */
export function formatCommandLine(args: readonly string[]): string {
  return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`)).join(' ');
}
