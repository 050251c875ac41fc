import { describe, expect, it } from 'vitest';
import { formatCommandLine, parseCommandLine } from './command-line';

describe('command line', () => {
  it('splits like a shell: quotes group, a backslash escapes, no variables', () => {
    expect(parseCommandLine(`sh -c 'sleep 5 && echo "hi"'`)).toEqual(['sh', '-c', 'sleep 5 && echo "hi"']);
    expect(parseCommandLine(`echo "a \\"b\\" $HOME" c\\ d ''`)).toEqual(['echo', 'a "b" $HOME', 'c d', '']);
    expect(parseCommandLine('  ')).toEqual([]);
    expect(parseCommandLine(`sh -c 'oops`)).toEqual({ error: 'The command has an unclosed single quote.' });
  });

  it('writes arguments as the line that splits back into exactly them', () => {
    const cases = [
      ['sleep', '3600'],
      ['sh', '-c', `echo "it's $HOME" | cat`],
      ['', 'a b', "'", '\\', 'x=y', '--opt=1,2'],
      [],
    ];
    for (const args of cases) expect(parseCommandLine(formatCommandLine(args))).toEqual(args);
    expect(formatCommandLine(['sh', '-c', 'sleep 1'])).toBe(`sh -c 'sleep 1'`);
  });
});
