/**
 * Keys of the Compose Specification: the top level and a service's. The editor offers them, and a
 * save is not refused when an older compose CLI does not know one of them (a typo still is).
 */
export const COMPOSE_TOP_LEVEL_KEYS = ['version', 'name', 'include', 'services', 'networks', 'volumes', 'secrets', 'configs', 'models'] as const;

export const COMPOSE_SERVICE_KEYS = (
  'annotations attach build blkio_config cap_add cap_drop cgroup cgroup_parent command configs container_name cpu_count cpu_percent ' +
  'cpu_shares cpu_quota cpu_period cpu_rt_period cpu_rt_runtime cpus cpuset credential_spec depends_on deploy develop ' +
  'device_cgroup_rules devices dns dns_opt dns_search domainname entrypoint env_file label_file environment expose extends provider ' +
  'external_links extra_hosts gpus group_add healthcheck hostname image init ipc isolation labels links logging mac_address ' +
  'mem_limit mem_reservation mem_swappiness memswap_limit network_mode models networks oom_kill_disable oom_score_adj pid ' +
  'pids_limit platform ports post_start pre_stop privileged profiles pull_policy pull_refresh_after read_only restart runtime ' +
  'scale security_opt shm_size secrets sysctls stdin_open stop_grace_period stop_signal storage_opt tmpfs tty ulimits ' +
  'use_api_socket user uts userns_mode volumes volumes_from working_dir'
).split(' ');
