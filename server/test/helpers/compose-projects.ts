import { randomBytes } from 'node:crypto';
import { testEngine, tryDockerCli } from './engine';

/** A valid, unique project name for one test. */
export function projectName(feature: string): string {
  return `berth-t-${feature}-${randomBytes(3).toString('hex')}`;
}

/**
 * Two long-running services of the test image, no published ports. SIGKILL stops them at once
 * (busybox `sleep` as PID 1 ignores SIGTERM, which would cost 10 s per container).
 */
export function twoServiceYaml(image = testEngine().image): string {
  return `# two services for a Berth test
services:
  web:
    image: ${image}
    command: ["sleep", "3600"]
    stop_signal: SIGKILL
    environment:
      SECRET_TOKEN: hunter2
    labels:
      berth.test: "1"
  worker:
    image: ${image}
    command: sleep 3600
    stop_signal: SIGKILL
    labels:
      berth.test: "1"
volumes:
  data: {}
`;
}

/** Container names of a project (any state), straight from the engine. */
export function projectContainers(name: string): { name: string; service: string; state: string }[] {
  const out = tryDockerCli([
    'ps',
    '-a',
    '--filter',
    `label=com.docker.compose.project=${name}`,
    '--format',
    '{{.Names}}\t{{.Label "com.docker.compose.service"}}\t{{.State}}',
  ]).stdout;
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [n = '', service = '', state = ''] = l.split('\t');
      return { name: n, service, state };
    });
}

/** Removes whatever a test left of a project in the engine (containers, its default network, its volumes). */
export function cleanupProject(name: string): void {
  const ids = tryDockerCli(['ps', '-aq', '--filter', `label=com.docker.compose.project=${name}`])
    .stdout.split('\n')
    .filter(Boolean);
  if (ids.length) tryDockerCli(['rm', '-f', ...ids]);
  const nets = tryDockerCli(['network', 'ls', '-q', '--filter', `label=com.docker.compose.project=${name}`])
    .stdout.split('\n')
    .filter(Boolean);
  if (nets.length) tryDockerCli(['network', 'rm', ...nets]);
  const vols = tryDockerCli(['volume', 'ls', '-q', '--filter', `label=com.docker.compose.project=${name}`])
    .stdout.split('\n')
    .filter(Boolean);
  if (vols.length) tryDockerCli(['volume', 'rm', '-f', ...vols]);
}

/** Hands out project names and removes what each left in the engine (call `cleanup` after each test). */
export function trackedProjects(): { name: (feature: string) => string; cleanup: () => void } {
  const made: string[] = [];
  return {
    name(feature) {
      const name = projectName(feature);
      made.push(name);
      return name;
    },
    cleanup() {
      for (const name of made.splice(0)) cleanupProject(name);
    },
  };
}

/**
 * `up` blocks for real in compose v1: `waiter` depends on `never` being healthy, and `never`'s
 * first health check is an hour away.
 */
export function hangingYaml(): string {
  const image = testEngine().image;
  return `services:
  waiter:
    image: ${image}
    command: ["sleep", "3600"]
    stop_signal: SIGKILL
    depends_on:
      never:
        condition: service_healthy
    labels:
      berth.test: "1"
  never:
    image: ${image}
    command: ["sleep", "3600"]
    stop_signal: SIGKILL
    healthcheck:
      test: ["CMD", "false"]
      interval: 1h
      start_period: 1h
    labels:
      berth.test: "1"
`;
}
