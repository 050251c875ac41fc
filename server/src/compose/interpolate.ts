import fs from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../errors';

/** A .env larger than this is not a list of settings; refused rather than read whole. */
const MAX_DOTENV_BYTES = 256 * 1024;

export class InterpolationError extends Error {}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/**
 * Compose's variable substitution: `$$` is a literal `$`; `$VAR`, `${VAR}`, and `${VAR:-default}`,
 * `${VAR-default}`, `${VAR:+alt}`, `${VAR+alt}`, `${VAR:?err}`, `${VAR?err}` (defaults may nest).
 * Used to judge a path the way the CLI will read it; anything it cannot parse is an error, so an
 * odd form can never slip past as a harmless-looking relative path.
 */
export function interpolate(value: string, env: Readonly<Record<string, string>>): string {
  let out = '';
  let i = 0;
  while (i < value.length) {
    const c = value[i]!;
    if (c !== '$') {
      out += c;
      i += 1;
      continue;
    }
    const next = value[i + 1];
    if (next === '$') {
      out += '$';
      i += 2;
    } else if (next === '{') {
      const end = closingBrace(value, i + 2);
      out += substitute(value.slice(i + 2, end), env);
      i = end + 1;
    } else {
      const name = NAME.exec(value.slice(i + 1))?.[0];
      if (!name) throw new InterpolationError(`a lone "$" in ${JSON.stringify(value)} (write $$ for a literal dollar)`);
      out += env[name] ?? '';
      i += 1 + name.length;
    }
  }
  return out;
}

function closingBrace(value: string, from: number): number {
  let depth = 1;
  for (let j = from; j < value.length; j++) {
    if (value[j] === '$' && value[j + 1] === '{') {
      depth += 1;
      j += 1;
    } else if (value[j] === '}' && --depth === 0) return j;
  }
  throw new InterpolationError(`an unclosed "\${" in ${JSON.stringify(value)}`);
}

function substitute(expr: string, env: Readonly<Record<string, string>>): string {
  const name = NAME.exec(expr)?.[0];
  if (!name) throw new InterpolationError(`"\${${expr}}" is not a variable reference`);
  const rest = expr.slice(name.length);
  const value = env[name];
  if (rest === '') return value ?? '';
  const m = /^(:?)([-+?])([\s\S]*)$/.exec(rest);
  if (!m) throw new InterpolationError(`"\${${expr}}" uses an unknown substitution`);
  const [, colon, op, arg = ''] = m;
  const set = colon ? value !== undefined && value !== '' : value !== undefined;
  if (op === '-') return set ? value! : interpolate(arg, env);
  if (op === '+') return set ? interpolate(arg, env) : '';
  // `?`: compose itself refuses the file when the variable is missing.
  if (!set) throw new InterpolationError(`\${${name}} is required: ${arg || 'not set'}`);
  return value!;
}

/**
 * The variables of a project's `.env` as compose reads them: `KEY=VALUE` lines, an optional
 * `export `, quotes around the value removed, `#` comments and blank lines skipped.
 */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let v = m[2]!;
    const q = v[0];
    if ((q === '"' || q === "'") && v.length >= 2 && v.endsWith(q)) v = v.slice(1, -1);
    else v = v.replace(/\s+#.*$/, '');
    out[m[1]!] = v;
  }
  return out;
}

/**
 * The environment compose interpolates a project's file with: the project's `.env`, overridden
 * by the CLI's own environment (as compose gives the process environment precedence).
 */
export async function interpolationEnv(
  projectDir: string | null,
  cliEnv: Readonly<Record<string, string>>,
): Promise<Record<string, string>> {
  let dotenv: Record<string, string> = {};
  if (projectDir) {
    const file = path.join(projectDir, '.env');
    const st = await fs.stat(file).catch(() => null);
    if (st?.isFile()) {
      if (st.size > MAX_DOTENV_BYTES)
        throw new ValidationError(
          `The project's .env is ${Math.ceil(st.size / 1024)} KiB; Berth reads at most ${MAX_DOTENV_BYTES / 1024} KiB of it to check the compose file's paths.`,
        );
      dotenv = parseDotenv(await fs.readFile(file, 'utf8'));
    }
  }
  return { ...dotenv, ...cliEnv };
}
