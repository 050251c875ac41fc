import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Docker engine the tests run against, as prepared by `scripts/test-env.sh` (which `npm test`
 * runs and whose `.test-env/env.sh` it sources).
 */
export interface TestEngine {
  /** e.g. unix:///repo/.test-env/docker.sock */
  dockerHost: string;
  /** A tiny busybox image in the local registry, e.g. 127.0.0.1:5000/berth-test/busybox:latest */
  image: string;
  /** The local registry, e.g. 127.0.0.1:5000 (plain HTTP, no auth, deletes enabled) */
  registry: string;
  /** True when the harness started this engine itself, so tests may do anything to it. */
  harnessOwned: boolean;
}

/**
 * A command that idles like `sleep 3600` but ends at once on SIGTERM. A bare `sleep` (or `sh -c
 * 'sleep …'`) as PID 1 ignores SIGTERM, so every stop, edit or recreate through Berth would wait
 * out the engine's 10 s grace period.
 */
export const IDLE_COMMAND = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MARKER = path.join(REPO_ROOT, '.test-env', 'harness-owned');
const HINT = 'run `npm test`, which starts the test engine (or `bash scripts/test-env.sh && source .test-env/env.sh`)';

export function testEngine(): TestEngine {
  const env = process.env;
  const missing = ['BERTH_TEST_DOCKER_HOST', 'BERTH_TEST_IMAGE', 'BERTH_TEST_REGISTRY'].filter((k) => !env[k]);
  if (missing.length) throw new Error(`test engine not configured (${missing.join(', ')} unset): ${HINT}`);
  return {
    dockerHost: env.BERTH_TEST_DOCKER_HOST!,
    image: env.BERTH_TEST_IMAGE!,
    registry: env.BERTH_TEST_REGISTRY!,
    harnessOwned: env.BERTH_TEST_HARNESS_OWNED === '1',
  };
}

/** The marker the harness writes next to the engine it started holds that engine's socket URL. */
function markerMatches(dockerHost: string): boolean {
  try {
    return fs.readFileSync(MARKER, 'utf8').trim() === dockerHost;
  } catch {
    return false;
  }
}

/** For destructive tests (prune, removing every container, ...): only on an engine the harness started. */
export function requireHarnessEngine(): TestEngine {
  const engine = testEngine();
  if (!engine.harnessOwned || !markerMatches(engine.dockerHost)) {
    throw new Error(
      `refusing a destructive test: ${engine.dockerHost} was not started by the test harness ` +
        '(BERTH_TEST_HARNESS_OWNED != 1 or .test-env/harness-owned does not name it); unset BERTH_TEST_DOCKER_HOST and run `npm test`',
    );
  }
  return engine;
}

export interface DockerCliOptions {
  /** Written to the command's stdin. */
  input?: string | Buffer;
  /** Default 120 s. */
  timeoutMs?: number;
  /** Extra environment for the CLI. */
  env?: Record<string, string>;
}

export interface DockerCliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cliPath(): string {
  return process.env.BERTH_TEST_DOCKER_CLI || 'docker';
}

/** The CLI's argv and environment for the test engine. */
function cliCall(args: string[], opts: DockerCliOptions): { argv: string[]; env: NodeJS.ProcessEnv } {
  const { dockerHost } = testEngine();
  return {
    argv: ['--host', dockerHost, ...args],
    env: { ...process.env, DOCKER_HOST: dockerHost, DOCKER_CLI_HINTS: 'false', ...opts.env },
  };
}

/** Runs the docker CLI against the test engine (argv array, no shell) and reports, never throws on exit status. */
export function tryDockerCli(args: string[], opts: DockerCliOptions = {}): DockerCliResult {
  const { argv, env } = cliCall(args, opts);
  const res = spawnSync(cliPath(), argv, {
    input: opts.input,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
    env,
  });
  if (res.error) throw new Error(`docker ${args.join(' ')}: ${res.error.message}`);
  return { status: res.status, stdout: res.stdout ?? '', stderr: res.stderr ?? '' };
}

/** `dockerCli` without blocking this process (the server under test keeps running meanwhile); no stdin. */
export function dockerCliAsync(args: string[], opts: Omit<DockerCliOptions, 'input'> = {}): Promise<string> {
  const { argv, env } = cliCall(args, opts);
  return new Promise((resolve, reject) => {
    execFile(
      cliPath(),
      argv,
      { encoding: 'utf8', timeout: opts.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024, env },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`docker ${args.join(' ')} failed: ${stderr.trim() || err.message}`));
        else resolve(stdout);
      },
    );
  });
}

/**
 * Runs the docker CLI against the test engine, independently of our server, and returns its stdout.
 * Throws with the CLI's stderr when it exits non-zero.
 *
 *   dockerCli(['inspect', '--format', '{{.State.Status}}', name]).trim()
 */
export function dockerCli(args: string[], opts: DockerCliOptions = {}): string {
  const res = tryDockerCli(args, opts);
  if (res.status !== 0) {
    throw new Error(
      `docker ${args.join(' ')} exited ${res.status ?? 'by signal'}: ${res.stderr.trim() || res.stdout.trim()}`,
    );
  }
  return res.stdout;
}

/** Removes (forcefully) every container whose name contains `prefix`; for a test's afterAll. */
export function removeContainersNamed(prefix: string): void {
  const ids = tryDockerCli(['ps', '-aq', '--filter', `name=${prefix}`])
    .stdout.split('\n')
    .filter(Boolean);
  if (ids.length) tryDockerCli(['rm', '-f', ...ids]);
}
