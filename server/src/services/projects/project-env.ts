import fs from 'node:fs/promises';
import path from 'node:path';
import type { Uses } from '../../context';
import { parseDotenv } from '../../compose/interpolate';
import { ConflictError, ValidationError } from '../../errors';
import { writeFileAtomic } from '../../lib/atomic-write';
// Sending the mask back keeps the stored value.
import { MASK } from '../../lib/env-mask';
import type { Actor } from '../policy';
import type { ProjectsService } from './projects';

/** A project's .env is a short list of settings. */
export const MAX_ENV_BYTES = 64 * 1024;

const ENTRY = /^(\s*(?:export\s+)?)([A-Za-z_][A-Za-z0-9_.-]*)(\s*=\s*)(.*)$/;

/** Every `KEY=value` line with its value replaced by the mask; comments, blank lines and bare keys stay. */
export function maskEnv(content: string): string {
  return content
    .split('\n')
    .map((line) => {
      const m = ENTRY.exec(line);
      return m && m[4] !== '' ? `${m[1]}${m[2]}${m[3]}${MASK}` : line;
    })
    .join('\n');
}

/** New content where each `KEY=<mask>` line takes the value KEY has in `current` (a key that had none is refused). */
export function unmaskEnv(next: string, current: string): string {
  const values = new Map<string, string>();
  for (const line of current.split('\n')) {
    const m = ENTRY.exec(line);
    if (m) values.set(m[2]!, m[4]!);
  }
  return next
    .split('\n')
    .map((line, i) => {
      const m = ENTRY.exec(line);
      if (!m || m[4] !== MASK) return line;
      const kept = values.get(m[2]!);
      if (kept === undefined)
        throw new ValidationError(`Line ${i + 1}: ${m[2]} has no stored value to keep; type its value.`, [
          { field: 'content', message: `${m[2]} has no stored value.` },
        ]);
      return `${m[1]}${m[2]}${m[3]}${kept}`;
    })
    .join('\n');
}

/**
 * A project's `.env` (compose reads it for `${…}` values). Read back masked; the values are shown
 * only after re-authentication, and never go into a support bundle.
 */
/** The rules of a .env text (size, no control characters); `field` names it in the 400. */
export function checkEnvText(content: string, field: string): void {
  if (Buffer.byteLength(content) > MAX_ENV_BYTES)
    throw new ValidationError(`The .env file is larger than ${MAX_ENV_BYTES / 1024} KiB.`, [
      { field, message: 'Too large.' },
    ]);
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(content.replace(/\r\n/g, '\n'))) {
    throw new ValidationError('The .env file contains control characters.', [
      { field, message: 'No control characters.' },
    ]);
  }
}

export class ProjectEnvService {
  constructor(
    private readonly ctx: Uses<never, 'cliEnv'>,
    private readonly projects: ProjectsService,
  ) {}

  async read(name: string, reveal = false): Promise<{ exists: boolean; content: string }> {
    const file = await this.file(name);
    const content = await fs.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (content === null) return { exists: false, content: '' };
    return { exists: true, content: reveal ? content : maskEnv(content) };
  }

  async write(name: string, content: string, actor: Actor): Promise<{ exists: boolean; content: string }> {
    checkEnvText(content, 'content');
    const current = await this.read(name, true);
    const next = unmaskEnv(content, current.content);
    const p = await this.projects.resolveExisting(name);
    if (p.external)
      throw new ConflictError(`Project ${name} was started outside Berth; adopt it before editing its .env.`);
    // The .env feeds the compose file's ${…}: its paths are judged again with the new values, as at a save of the file.
    await this.projects.judge(p, actor, parseDotenv(next));
    await writeFileAtomic(path.join(p.dir, '.env'), next, { mode: 0o600 });
    return this.read(name);
  }

  /** The .env's values (what `${…}` in the compose file turns into), for masking what compose derived from them. */
  async values(name: string): Promise<string[]> {
    const { content } = await this.read(name, true);
    return Object.values(parseDotenv(content));
  }

  private async file(name: string): Promise<string> {
    const p = await this.projects.resolveExisting(name);
    return path.join(p.dir, '.env');
  }
}
