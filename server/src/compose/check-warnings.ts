import YAML, { isMap, type Document } from 'yaml';

/**
 * CLI check failures that only say something is not there yet (a build context, an env file) or
 * that the installed CLI is older than the file (a key it does not know). A save is not refused for
 * them: the user gets a warning and the check goes on with the offending part left out of the
 * check's copy, so every other error is still found. Each entry turns the CLI's words into the
 * warning and takes the part out of the copy.
 */
interface Relaxation {
  match: RegExp;
  warn: (m: RegExpExecArray) => string;
  drop: (doc: Document, m: RegExpExecArray) => boolean;
}

/** Keys of the Compose Specification (top level, and of a service) that an older CLI may not know yet. */
const SPEC_TOP_LEVEL = new Set(['version', 'name', 'include', 'services', 'networks', 'volumes', 'secrets', 'configs', 'models']);
const SPEC_SERVICE = new Set(
  (
    'annotations attach build blkio_config cap_add cap_drop cgroup cgroup_parent command configs container_name cpu_count cpu_percent ' +
    'cpu_shares cpu_quota cpu_period cpu_rt_period cpu_rt_runtime cpus cpuset credential_spec depends_on deploy develop ' +
    'device_cgroup_rules devices dns dns_opt dns_search domainname entrypoint env_file label_file environment expose extends provider ' +
    'external_links extra_hosts gpus group_add healthcheck hostname image init ipc isolation labels links logging mac_address ' +
    'mem_limit mem_reservation mem_swappiness memswap_limit network_mode models networks oom_kill_disable oom_score_adj pid ' +
    'pids_limit platform ports post_start pre_stop privileged profiles pull_policy pull_refresh_after read_only restart runtime ' +
    'scale security_opt shm_size secrets sysctls stdin_open stop_grace_period stop_signal storage_opt tmpfs tty ulimits ' +
    'use_api_socket user uts userns_mode volumes volumes_from working_dir'
  ).split(' '),
);

const servicesOf = (doc: Document): [string, YAML.YAMLMap][] => {
  const services = doc.get('services');
  if (!isMap(services)) return [];
  return services.items.flatMap((pair) => (isMap(pair.value) ? [[String(YAML.isScalar(pair.key) ? pair.key.value : pair.key), pair.value] as [string, YAML.YAMLMap]] : []));
};

/** Removes `key` from every service that has it; a service left with neither image nor build gets a stand-in image. */
function dropServiceKey(doc: Document, key: string): boolean {
  let dropped = false;
  for (const [, service] of servicesOf(doc)) {
    if (!service.has(key)) continue;
    service.delete(key);
    if (!service.has('image') && !service.has('build')) service.set('image', 'berth-check-stand-in');
    dropped = true;
  }
  return dropped;
}

const RELAXATIONS: Relaxation[] = [
  {
    match: /build path (.+?) either does not exist, is not accessible, or is not a valid URL/,
    warn: (m) => `The build context ${m[1]} does not exist yet; create it before building or starting the project.`,
    drop: (doc) => dropServiceKey(doc, 'build'),
  },
  {
    match: /Couldn't find env file: (.+)/,
    warn: (m) => `The env file ${m[1]!.trim()} does not exist yet; create it before starting the project.`,
    drop: (doc) => dropServiceKey(doc, 'env_file'),
  },
  {
    // Only keys the specification has: a typo is still an error.
    match: /'(version|name|include|services|networks|volumes|secrets|configs|models)' does not match any of the regexes: '\^x-'/,
    warn: (m) => `The installed compose CLI does not know the top-level key "${m[1]}" (newer compose versions do); it cannot run the file until it is removed or the CLI is updated.`,
    drop: (doc, m) => SPEC_TOP_LEVEL.has(m[1]!) && doc.delete(m[1]!),
  },
  {
    match: /Unsupported config option for services\.([^:]+): '([^']+)'/,
    warn: (m) => `The installed compose CLI does not know "${m[2]}" of service ${m[1]} (newer compose versions do); it cannot run the file until it is removed or the CLI is updated.`,
    drop: (doc, m) => SPEC_SERVICE.has(m[2]!) && doc.deleteIn(['services', m[1]!, m[2]!]),
  },
];

/**
 * The warning for a CLI check failure that should not refuse the save, with the check copy's
 * content to check again; null when the failure is a real error.
 */
export function relaxCheck(content: string, cliOutput: string): { warning: string; retry: string } | null {
  for (const r of RELAXATIONS) {
    const m = r.match.exec(cliOutput);
    if (!m) continue;
    const doc = YAML.parseDocument(content, { merge: true });
    if (!r.drop(doc, m)) return null;
    return { warning: r.warn(m), retry: doc.toString() };
  }
  return null;
}
