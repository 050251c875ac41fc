import { ComposeFailedError } from '../errors';
import { run } from './cli';
import { withDockerConfig, type RegistryAuths } from './docker-config';

/** How the docker CLI is run for stacks: its whole environment (config.cliEnv, with DOCKER_HOST) and a timeout. */
export interface StackRunner {
  env: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** Aborted when the server closes (SIGTERM to the process group, SIGKILL after graceMs). */
  signal?: AbortSignal;
  graceMs?: number;
  /** Registry credentials the stack's images need: a private DOCKER_CONFIG, sent to the swarm with `--with-registry-auth`. */
  registry?: RegistryAuths;
}

const DETAIL_TAIL = 2000;
const tail = (t: string) => (t.trim().length > DETAIL_TAIL ? `…${t.trim().slice(-DETAIL_TAIL)}` : t.trim());

async function docker(
  r: StackRunner,
  args: string[],
  cwd: string | undefined,
  onOutput?: (chunk: string) => void,
): Promise<string> {
  const label = ['docker', ...args].join(' ');
  const res = await withDockerConfig(r.registry, r.env, (env) =>
    run(['docker', ...args], {
      timeoutMs: r.timeoutMs,
      env,
      ...(cwd ? { cwd } : {}),
      ...(onOutput ? { onOutput } : {}),
      signal: r.signal,
      graceMs: r.graceMs,
    }),
  );
  const output = res.stdout + res.stderr;
  if (res.code === 127 && /ENOENT/.test(res.stderr))
    throw new ComposeFailedError(
      'The docker CLI was not found on the PATH; stacks are deployed with `docker stack deploy`.',
      503,
    );
  if (r.signal?.aborted)
    throw new ComposeFailedError(`${label} was stopped because Berth is shutting down. ${tail(output)}`.trim(), 503);
  if (res.timedOut)
    throw new ComposeFailedError(
      `${label} did not finish within ${Math.round(r.timeoutMs / 1000)} s and was stopped. ${tail(output)}`.trim(),
      504,
    );
  if (res.code !== 0)
    throw new ComposeFailedError(
      `${label} failed (exit ${res.code ?? 'by signal'}): ${tail(res.stderr || res.stdout) || 'no output'}`,
      400,
    );
  return output;
}

/**
 * `docker stack deploy` of one file (argv only, in the stack's folder so relative paths resolve
 * there). `--prune` removes services the edited file no longer has.
 */
export function stackDeploy(
  r: StackRunner,
  name: string,
  file: string,
  dir: string,
  onOutput?: (chunk: string) => void,
): Promise<string> {
  // With credentials the managers hand them to the nodes that pull (never written on those hosts).
  const auth = r.registry && Object.keys(r.registry.auths).length ? ['--with-registry-auth'] : [];
  return docker(r, ['stack', 'deploy', '--prune', ...auth, '--compose-file', file, name], dir, onOutput);
}

/** `docker stack rm`: the stack's services, networks, configs and secrets. */
export function stackRemove(r: StackRunner, name: string): Promise<string> {
  return docker(r, ['stack', 'rm', name], undefined);
}
