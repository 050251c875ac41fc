import fs from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_NAME_PATTERN } from '@berth/contract';
import type { LabelledContainer } from './compose-containers';

/** A compose project started outside Berth: its containers carry where compose ran and which file it read. */
export interface ExternalProject {
  name: string;
  dir: string;
  /** The compose file, when the label names one Berth can read as a compose file; else null. */
  file: string | null;
}

/**
 * Only a regular file with a compose file's extension is ever read from a label: labels are set by
 * whoever made the container, so a label naming /etc/shadow must not turn Berth into a file reader.
 */
async function composeFileFrom(dir: string, configFiles: string | undefined): Promise<string | null> {
  const files = (configFiles ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  // Several files (an override, a prod file): Berth reads one, and an Up or an auto-update from part of
  // the configuration would recreate containers without the rest (ports, env, volumes).
  if (files.length !== 1) return null;
  const first = files[0]!;
  const file = path.resolve(dir, first);
  if (!/\.ya?ml$/i.test(file)) return null;
  const st = await fs.lstat(file).catch(() => null);
  return st?.isFile() ? file : null;
}

/** Projects whose containers (`containers`, from one engine list) say compose ran in a folder that is not one of Berth's (`own` names), by name. */
export async function findExternalProjects(
  containers: readonly LabelledContainer[],
  own: ReadonlySet<string>,
): Promise<Map<string, ExternalProject>> {
  const found = new Map<string, ExternalProject>();
  for (const c of containers) {
    const dir = c.workingDir ?? '';
    if (own.has(c.project) || found.has(c.project) || !PROJECT_NAME_PATTERN.test(c.project) || !path.isAbsolute(dir))
      continue;
    found.set(c.project, { name: c.project, dir, file: await composeFileFrom(dir, c.configFiles ?? undefined) });
  }
  return found;
}
