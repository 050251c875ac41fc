import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ProjectAction, ServiceAction } from '@berth/contract';
import { ComposeFailedError, ValidationError } from '../errors';
import { relaxCheck } from './check-warnings';
import { run, type ComposeCli } from './cli';
import { NEW_COMPOSE_FILE } from './paths';
import { withDockerConfig, type RegistryAuths } from './docker-config';

export interface ComposeRunner {
  cli: ComposeCli;
  /** The CLI's whole environment (config.cliEnv): never Berth's own. */
  env: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** Aborted when the server closes, so no compose child outlives it (SIGTERM, then SIGKILL after graceMs). */
  signal?: AbortSignal;
  graceMs?: number;
  /** Registry credentials the run's pulls need (a private DOCKER_CONFIG for this run only). */
  registry?: RegistryAuths;
}

/** How much of the CLI's output an error detail quotes (the end says what went wrong). */
const DETAIL_TAIL = 2000;
/** `config -q` only reads files; a minute is plenty even on a slow disk. */
const CHECK_TIMEOUT_MS = 60_000;

/**
 * The CLI arguments of an action (after the global options). `up` detaches, `rm` never asks
 * (no terminal is attached) and stops first, `down` keeps volumes.
 */
export function actionArgs(action: Exclude<ProjectAction, 'delete'> | ServiceAction, service: string | null): string[] {
  const svc = service ? [service] : [];
  switch (action) {
    case 'up':
      return ['up', '-d', ...svc];
    case 'create':
      return ['up', '--no-start', ...svc];
    case 'rm':
      return ['rm', '-f', '-s', ...svc];
    default:
      return [action, ...svc];
  }
}

/** The command as a person would type it, for messages. */
export function commandLabel(cli: ComposeCli, args: string[]): string {
  return [cli.argv.join(' '), ...args].join(' ');
}

function tail(text: string): string {
  const t = text.trim();
  return t.length > DETAIL_TAIL ? `…${t.slice(-DETAIL_TAIL)}` : t;
}

export interface ProjectFile {
  name: string;
  dir: string;
  file: string;
  /** Override files given after the project's own (`-f` each), e.g. an auto-update rollback's image pins. */
  overrides?: string[];
}

/**
 * Runs one compose command on a project with `-p` and `-f` explicit (so a `.env` naming another
 * project or file has no effect), in the project folder, killed at the timeout. Returns the
 * output; a non-zero exit or a timeout throws with the output's tail.
 */
export async function runCompose(
  r: ComposeRunner,
  p: ProjectFile,
  args: string[],
  onOutput: (chunk: string) => void,
): Promise<string> {
  const files = [p.file, ...(p.overrides ?? [])].flatMap((f) => ['-f', f]);
  const argv = [...r.cli.argv, '--ansi', 'never', '-p', p.name, ...files, ...args];
  const res = await withDockerConfig(r.registry, r.env, (env) =>
    run(argv, { timeoutMs: r.timeoutMs, env, cwd: p.dir, onOutput, signal: r.signal, graceMs: r.graceMs }),
  );
  const output = res.stdout + res.stderr;
  if (r.signal?.aborted)
    throw new ComposeFailedError(
      `${commandLabel(r.cli, args)} was stopped because Berth is shutting down. ${tail(output)}`.trim(),
      503,
    );
  if (res.timedOut) {
    throw new ComposeFailedError(
      `${commandLabel(r.cli, args)} did not finish within ${Math.round(r.timeoutMs / 1000)} s and was stopped. ${tail(output)}`.trim(),
      504,
    );
  }
  if (res.code !== 0) {
    throw new ComposeFailedError(
      `${commandLabel(r.cli, args)} failed (exit ${res.code ?? 'by signal'}): ${tail(res.stderr || res.stdout) || 'no output'}`,
      400,
    );
  }
  return output;
}

/** Each check's copy of the content lives in a folder named like this. */
const CHECK_PREFIX = '.berth-check-';

/**
 * Removes the copies that checks interrupted by a crash left: every check folder in `checkRoot`,
 * and those that older versions made among the project folders in `composeRoot`. Returns how many.
 */
export async function sweepCheckFiles(checkRoot: string, composeRoot: string | null): Promise<number> {
  let swept = 0;
  for (const dir of [checkRoot, composeRoot]) {
    if (!dir) continue;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    for (const e of entries) {
      if (!e.name.startsWith(CHECK_PREFIX) || e.isSymbolicLink()) continue;
      await fs.rm(path.join(dir, e.name), { recursive: true, force: true });
      swept += 1;
    }
  }
  return swept;
}

/** At most this many later-fixable findings are turned into warnings before a check gives up. */
const MAX_RELAXED = 8;

/**
 * The CLI's own check (`config -q`) of new content before it replaces anything: the content goes
 * to a private folder (`checkRoot`, under DATA_DIR, never among the project folders), and
 * relative paths resolve against the project folder when it exists. What can be fixed later (a
 * build context or env file not there yet, a key the installed CLI is too old for) comes back as
 * warnings; anything else refuses the save.
 */
export async function checkWithCli(
  r: ComposeRunner,
  checkRoot: string,
  name: string,
  projectDir: string | null,
  content: string,
  shownAs: string = NEW_COMPOSE_FILE,
  /** A new project's .env, checked with the file (it sets the `${…}` the file needs). */
  dotenv?: string,
): Promise<string[]> {
  await fs.mkdir(checkRoot, { recursive: true, mode: 0o700 });
  const tmpDir = path.join(checkRoot, `${CHECK_PREFIX}${randomBytes(6).toString('hex')}`);
  await fs.mkdir(tmpDir, { mode: 0o700 });
  const warnings: string[] = [];
  try {
    if (dotenv !== undefined && !projectDir) await fs.writeFile(path.join(tmpDir, '.env'), dotenv, { mode: 0o600 });
    const tmpFile = path.join(tmpDir, NEW_COMPOSE_FILE);
    const argv = [
      ...r.cli.argv,
      '--ansi',
      'never',
      '-p',
      name,
      '-f',
      tmpFile,
      ...(projectDir ? ['--project-directory', projectDir] : []),
      'config',
      '-q',
    ];
    const timeoutMs = Math.min(r.timeoutMs, CHECK_TIMEOUT_MS);
    let checked = content;
    for (;;) {
      await fs.writeFile(tmpFile, checked, { mode: 0o600 });
      const res = await run(argv, { timeoutMs, env: r.env, cwd: projectDir ?? tmpDir, signal: r.signal });
      if (res.timedOut)
        throw new ComposeFailedError(
          `The compose CLI did not finish checking the file within ${Math.round(timeoutMs / 1000)} s.`,
          504,
        );
      if (res.code === 0) return warnings;
      // Name the file as the user knows it, not our temp copy.
      const text = tail(res.stderr || res.stdout).replace(
        new RegExp(`\\S*${path.basename(tmpDir)}/${NEW_COMPOSE_FILE.replace('.', '\\.')}`, 'g'),
        shownAs,
      );
      const relaxed = warnings.length < MAX_RELAXED ? relaxCheck(checked, text) : null;
      if (!relaxed) {
        const detail = `The compose CLI refused the file: ${text || `exit ${res.code ?? 'by signal'}`}`;
        throw new ValidationError(detail, [{ field: 'content', message: detail }]);
      }
      warnings.push(relaxed.warning.replaceAll(tmpDir, projectDir ?? '.'));
      checked = relaxed.retry;
    }
  } finally {
    await fs.rm(tmpDir, { recursive: true, force: true });
  }
}

/** The file as the CLI resolves it (interpolated, normalised) and each service's config hash, which compose also stamps on the containers it makes. */
export async function resolvedConfig(
  r: ComposeRunner,
  p: ProjectFile,
): Promise<{ yaml: string; hashes: Map<string, string> }> {
  const stdout = async (args: string[]) => {
    const argv = [...r.cli.argv, '--ansi', 'never', '-p', p.name, '-f', p.file, ...args];
    const res = await run(argv, {
      timeoutMs: Math.min(r.timeoutMs, CHECK_TIMEOUT_MS),
      env: r.env,
      cwd: p.dir,
      signal: r.signal,
    });
    if (res.timedOut)
      throw new ComposeFailedError(
        `${commandLabel(r.cli, args)} did not finish within ${Math.round(CHECK_TIMEOUT_MS / 1000)} s.`,
        504,
      );
    if (res.code !== 0)
      throw new ComposeFailedError(
        `${commandLabel(r.cli, args)} failed (exit ${res.code ?? 'by signal'}): ${tail(res.stderr || res.stdout) || 'no output'}`,
        400,
      );
    return res.stdout;
  };
  const yaml = await stdout(['config']);
  const hashes = new Map<string, string>();
  for (const line of (await stdout(['config', '--hash=*'])).split('\n')) {
    const m = /^(\S+)\s+([0-9a-f]{64})$/.exec(line.trim());
    if (m) hashes.set(m[1]!, m[2]!);
  }
  return { yaml, hashes };
}
