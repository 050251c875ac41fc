import type { ProjectStatus } from '@berth/contract';

/**
 * A project's state from its services and containers: `running` when every service has a running
 * container, `partial` when only some do, `stopped` when containers exist but none runs, `not created`
 * when there are none. Services are the file's, plus any a container names that the file no longer has.
 */
export function projectStatus(
  fileServices: readonly string[],
  containers: readonly { service: string; state: string }[],
): ProjectStatus {
  const services = new Set([...fileServices, ...containers.map((c) => c.service).filter(Boolean)]);
  const runningServices = new Set(containers.filter((c) => c.state === 'running').map((c) => c.service));
  const runningContainers = containers.filter((c) => c.state === 'running').length;
  const state =
    containers.length === 0
      ? 'not created'
      : runningContainers === 0
        ? 'stopped'
        : [...services].every((s) => runningServices.has(s))
          ? 'running'
          : 'partial';
  return {
    state,
    services: services.size,
    runningServices: [...services].filter((s) => runningServices.has(s)).length,
    containers: containers.length,
    runningContainers,
  };
}
