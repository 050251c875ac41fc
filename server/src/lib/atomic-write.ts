import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Replaces `file` with `content` so that a reader sees either the old bytes or the new ones,
 * never a half-written file, even across a crash: write a temp file in the same folder, fsync
 * it, rename it over the target, fsync the folder. On failure the target is untouched.
 */
export async function writeFileAtomic(
  file: string,
  content: string | Buffer,
  opts: { mode?: number } = {},
): Promise<void> {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  let mode = opts.mode;
  if (mode === undefined) {
    // Keep the permissions of the file being replaced.
    mode = await fs.stat(file).then(
      (st) => st.mode & 0o7777,
      () => 0o644,
    );
  }
  const handle = await fs.open(tmp, 'wx', mode);
  try {
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await fsyncDir(dir);
}

/** Makes a rename or a new entry in `dir` durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
