import fs from 'node:fs';
import path from 'node:path';

/**
 * A bind source as the engine will mount it: `~` is the CLI user's home, a relative path starts
 * at `base` (the project's folder), `..` is folded; on the engine Berth runs beside (`real`), links
 * are followed as far as the path exists, so a link into DATA_DIR is judged as DATA_DIR.
 */
export function resolveHostPath(value: string, opts: { base?: string; home?: string; real: boolean }): string {
  let p = value;
  if (p === '~' || p.startsWith('~/')) p = path.posix.join(opts.home ?? '/root', p.slice(1));
  p = path.posix.resolve(opts.base ?? '/', p);
  if (!opts.real) return p;
  // The deepest part that exists is resolved; the rest (made by the engine at mount time) is appended.
  let head = p;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.posix.join(fs.realpathSync(head), ...tail.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || head === '/') return p;
      tail.push(path.posix.basename(head));
      head = path.posix.dirname(head);
    }
  }
}
