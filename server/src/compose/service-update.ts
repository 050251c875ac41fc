import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { runCompose, type ComposeRunner, type ProjectFile } from './project-cli';

/**
 * Recreates only `services` (never their dependencies, always recreated, so compose v1 and v2
 * behave alike whatever each compares to decide).
 */
const recreateArgs = (services: string[]) => ['up', '-d', '--no-deps', '--force-recreate', ...services];

/** Pulls the images of `services`. */
export async function pullServices(
  r: ComposeRunner,
  p: ProjectFile,
  services: string[],
  onOutput: (chunk: string) => void,
): Promise<void> {
  await runCompose(r, p, ['pull', ...services], onOutput);
}

/** Recreates just `services` from their images as they are now on the engine. */
export async function recreateServices(
  r: ComposeRunner,
  p: ProjectFile,
  services: string[],
  onOutput: (chunk: string) => void,
): Promise<void> {
  await runCompose(r, p, recreateArgs(services), onOutput);
}

/**
 * Recreates `services` from the images `pins` names (service → `repo@sha256:…`), through an
 * override file given after the project's own (withPinFile): the project's file is never changed.
 */
export async function recreatePinned(
  r: ComposeRunner,
  p: ProjectFile,
  tmpRoot: string,
  pins: Record<string, string>,
  version: string | null,
  onOutput: (chunk: string) => void,
): Promise<void> {
  await withPinFile(tmpRoot, pins, version, (file) =>
    runCompose(r, { ...p, overrides: [file] }, recreateArgs(Object.keys(pins)), onOutput),
  );
}

/**
 * Runs `fn` with an override file that sets each service of `pins` to its image (service →
 * `repo@sha256:…`), in a private folder under `tmpRoot` removed afterwards. It repeats the
 * project file's `version` (compose v1 refuses files of different versions together).
 */
export async function withPinFile<T>(
  tmpRoot: string,
  pins: Record<string, string>,
  version: string | null,
  fn: (file: string) => Promise<T>,
): Promise<T> {
  await fs.mkdir(tmpRoot, { recursive: true, mode: 0o700 });
  const dir = await fs.mkdtemp(path.join(tmpRoot, `pin-${randomBytes(3).toString('hex')}-`));
  try {
    const file = path.join(dir, 'pinned.yml');
    const services = Object.fromEntries(Object.entries(pins).map(([service, image]) => [service, { image }]));
    // JSON is YAML: no quoting rules to get wrong for the references.
    await fs.writeFile(file, JSON.stringify({ ...(version ? { version } : {}), services }), { mode: 0o600 });
    return await fn(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
