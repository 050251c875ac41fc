#!/usr/bin/env bash
# Berth test environment: a throwaway dockerd of our own, a local registry and a tiny busybox
# image in it. Idempotent: starts what is missing, reuses what already runs.
#
#   scripts/test-env.sh [start]   start or reuse; writes .test-env/env.sh (export lines)
#   scripts/test-env.sh stop      stop the dockerd and registry this harness started
#   scripts/test-env.sh purge     stop, then delete .test-env/ entirely (images, containers, volumes)
#   scripts/test-env.sh status    say what runs
#   scripts/test-env.sh remote-stop | remote-start   stop / start only the remote (TLS) dockerd
#
# Next to the first engine it also starts a TLS "remote" dockerd, an sshd reaching it and a single-node
# swarm dockerd (scripts/test-env-remote.sh); their addresses, keys and certs are exported in env.sh.
#
# Environment knobs:
#   BERTH_TEST_DOCKER_HOST   use this engine (e.g. unix:///var/run/docker.sock) instead of starting one;
#                            registry and image are still prepared against it; harness-owned = 0
#   BERTH_TEST_REGISTRY      registry address, default 127.0.0.1:5000
#   BERTH_TEST_STORAGE_DRIVER  force dockerd's storage driver (default: dockerd picks, overlay2 on ext4)
set -euo pipefail

export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STATE="$ROOT/.test-env"
REGISTRY="${BERTH_TEST_REGISTRY:-127.0.0.1:5000}"
IMAGE_REPO="berth-test/busybox"
IMAGE="$REGISTRY/$IMAGE_REPO:latest"
# Bump when the image recipe below changes, so old images get rebuilt.
IMAGE_RECIPE="berth-test-busybox-v1"
# Network slot n: bridge berth<n>, its address 10.213.<n>.1/24, user networks from 10.<214+n>.0.0/16.
# Slot 0 unless another harness dockerd (another checkout) already uses it; see pick_slot.
set_slot() {
  SLOT=$1
  BRIDGE="berth$SLOT"
  BRIDGE_CIDR="10.213.$SLOT.1/24"
  ADDRESS_POOL="base=10.$((214 + SLOT)).0.0/16,size=24"
}
set_slot 0
PACKAGES=(docker.io docker-compose docker-registry busybox-static chromium openssh-server python3-paramiko openssl)

say() { printf '[test-env] %s\n' "$*"; }
die() { printf '[test-env] ERROR: %s\n' "$*" >&2; exit 1; }

# Socket and exec-root live in .test-env unless the path gets too long for unix sockets
# (108 bytes incl. containerd's sockets under the exec-root); then a short dir under /run.
if (( ${#STATE} > 60 )); then
  RUNDIR="/run/berth-test/$(printf '%s' "$ROOT" | sha1sum | cut -c1-12)"
else
  RUNDIR="$STATE"
fi
SOCK="$RUNDIR/docker.sock"
OWN_HOST="unix://$SOCK"
EXEC_ROOT="$RUNDIR/exec"
DATA_ROOT="$STATE/docker"
PIDFILE="$STATE/dockerd.pid"
DLOG="$STATE/dockerd.log"
REG_PIDFILE="$STATE/registry.pid"
REG_LOG="$STATE/registry.log"
REG_CONF="$STATE/registry.yml"
MARKER="$STATE/harness-owned"
ENV_FILE="$STATE/env.sh"

# The docker CLI: Debian's docker.io client (same version as the engine) if present.
if [[ -x /usr/bin/docker ]]; then DOCKER_CLI=/usr/bin/docker; else DOCKER_CLI=$(command -v docker || echo docker); fi

pid_alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }
pid_of() { if [[ -s "$1" ]]; then tr -dc '0-9' <"$1"; fi; }
engine_answers() { timeout 10 "$DOCKER_CLI" -H "$1" version --format '{{.Server.Version}}' >/dev/null 2>&1; }
registry_answers() { curl -sf -m 3 -o /dev/null "http://$REGISTRY/v2/"; }
# Process still carrying the command line we gave it (guards against a recycled pid).
pid_is() { pid_alive "$1" && tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -q -- "$2"; }

# shellcheck source=scripts/test-env-remote.sh
source "$ROOT/scripts/test-env-remote.sh"

# ---------------------------------------------------------------------------------------------
# Packages
# ---------------------------------------------------------------------------------------------
pkg_installed() { [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == "install ok installed" ]]; }

ensure_packages() {
  local missing=() p
  if command -v dpkg-query >/dev/null 2>&1; then
    for p in "${PACKAGES[@]}"; do pkg_installed "$p" || missing+=("$p"); done
    command -v curl >/dev/null 2>&1 || missing+=(curl)
    command -v ip >/dev/null 2>&1 || missing+=(iproute2)
  else
    for p in dockerd docker-compose docker-registry busybox curl; do
      command -v "$p" >/dev/null 2>&1 || missing+=("$p")
    done
  fi
  ((${#missing[@]} == 0)) && return 0
  if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    die "missing ${missing[*]}; install as root: apt-get install -y docker.io docker-compose docker-registry busybox-static chromium curl iproute2"
  fi
  say "installing ${missing[*]} (apt-get)"
  # Keep Debian's maintainer scripts from starting a system dockerd/registry (port 5000) for us.
  local added_policy=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && added_policy=1
  fi
  local rc=0
  {
    DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  } </dev/null >"$STATE/apt.log" 2>&1 || rc=$?
  ((added_policy)) && rm -f /usr/sbin/policy-rc.d
  if ((rc != 0)); then
    tail -n 20 "$STATE/apt.log" >&2
    die "apt-get install ${missing[*]} failed (see .test-env/apt.log)"
  fi
  [[ -x /usr/bin/docker ]] && DOCKER_CLI=/usr/bin/docker
  return 0
}

# ---------------------------------------------------------------------------------------------
# dockerd
# ---------------------------------------------------------------------------------------------
# Our own remote/swarm dockerds run with --iptables=false and do not count.
other_dockerd_running() {
  local mine p
  mine=" $(pid_of "$PIDFILE") $(own_extra_dockerd_pids | tr '\n' ' ') "
  for p in $(pgrep -x dockerd || true); do
    [[ "$mine" != *" $p "* ]] && return 0
  done
  return 1
}

# Bridges named on the command line of dockerds that are not ours.
bridges_of_other_dockerds() {
  local mine p
  mine=" $(pid_of "$PIDFILE") $(own_extra_dockerd_pids | tr '\n' ' ') "
  for p in $(pgrep -x dockerd || true); do
    [[ "$mine" == *" $p "* ]] && continue
    tr '\0' '\n' <"/proc/$p/cmdline" 2>/dev/null | awk 'prev == "--bridge" || prev == "-b" { print } /^--bridge=/ { sub(/^--bridge=/, ""); print } { prev = $0 }'
  done
}

pick_slot() {
  local used n preferred
  used=" $(bridges_of_other_dockerds | tr '\n' ' ') "
  preferred=$(pid_of "$STATE/net-slot")
  for n in ${preferred:+$preferred} 0 1 2 3 4 5 6 7 8 9; do
    # A slot's bridges: berth<n> (this engine), berthr<n> and berths<n> (remote and swarm engines).
    if [[ "$used" != *" berth$n "* && "$used" != *" berthr$n "* && "$used" != *" berths$n "* ]]; then
      set_slot "$n"
      echo "$n" >"$STATE/net-slot"
      return 0
    fi
  done
  die "no free berth<n> bridge slot (0-9): too many test dockerds running"
}

# The slot picked when our first dockerd started (address pools, bridges and swarm address derive from it).
load_slot() {
  local slot
  slot=$(pid_of "$STATE/net-slot")
  [[ -n "$slot" ]] && set_slot "$slot"
  return 0
}

# make_bridge <name> <cidr>: a host bridge of our own for one dockerd. Every engine gets one: a dockerd
# whose bridge is disabled deletes the host's docker0 at start (breaking a system engine's network).
make_bridge() {
  if ! ip link show "$1" >/dev/null 2>&1; then
    ip link add "$1" type bridge
  fi
  # dockerd refuses --bridge together with --bip: the bridge carries its address itself.
  if ! ip -4 addr show dev "$1" | grep -qF "inet $2"; then
    ip addr add "$2" dev "$1"
  fi
  ip link set "$1" up 2>/dev/null || true
}
drop_bridge() { if ip link show "$1" >/dev/null 2>&1; then ip link del "$1" 2>/dev/null || true; fi; }
ensure_bridge() { make_bridge "$BRIDGE" "$BRIDGE_CIDR"; }

# forget_networks <data-root>: a dockerd started with --default-address-pool whose network store still
# holds the previous run's default "bridge" network deletes the host's docker0 at start, whatever its
# --bridge (moby's "Clear stale bridge network"). So every restart begins with an empty network store;
# the user networks of a throwaway engine go with it (containers still attached to one will not start).
forget_networks() { rm -f "$1/network/files/local-kv.db"; }

# The host's docker0 (a system engine's default network) must survive whatever the harness does.
docker0_present() { command -v ip >/dev/null 2>&1 && ip link show docker0 >/dev/null 2>&1; }
check_docker0() { # <was present: 0|1> <what ran>
  (($1)) || return 0
  docker0_present && return 0
  printf '[test-env] ERROR: %s\n' \
    "!!! the host's docker0 interface existed before '$2' and is GONE now !!!" \
    "a dockerd started with its bridge disabled, or restarted with --default-address-pool and the previous" \
    "run's network store, deletes docker0; the system engine's default network is broken until it restarts" \
    "(systemctl restart docker). Find the dockerd: pgrep -a dockerd" >&2
  exit 1
}

# start_dockerd <iptables:true|false>; returns 0 once the socket answers.
start_dockerd() {
  local iptables=$1 args
  mkdir -p "$DATA_ROOT" "$EXEC_ROOT"
  [[ -f "$STATE/daemon.json" ]] || echo '{}' >"$STATE/daemon.json"
  rm -f "$SOCK"
  ensure_bridge
  forget_networks "$DATA_ROOT"
  args=(
    --host "$OWN_HOST"
    --data-root "$DATA_ROOT"
    --exec-root "$EXEC_ROOT"
    --pidfile "$PIDFILE"
    --config-file "$STATE/daemon.json"
    --containerd-namespace berth-test
    --containerd-plugins-namespace berth-test-plugins
    --bridge "$BRIDGE"
    --default-address-pool "$ADDRESS_POOL"
    --tls=false
    --shutdown-timeout 2
  )
  [[ -n "${BERTH_TEST_STORAGE_DRIVER:-}" ]] && args+=(--storage-driver "$BERTH_TEST_STORAGE_DRIVER")
  [[ "$iptables" == false ]] && args+=(--iptables=false --ip-masq=false)
  [[ -f "$DLOG" ]] && mv -f "$DLOG" "$DLOG.1"
  printf '%s\n' "${args[*]}" >"$STATE/dockerd.args"
  # setsid + closed stdio: the daemon outlives this script and never holds our caller's pipes.
  setsid dockerd "${args[@]}" </dev/null >>"$DLOG" 2>&1 9>&- &
  local pid=$! i
  for ((i = 0; i < 120; i++)); do
    if ! pid_alive "$pid"; then
      wait "$pid" 2>/dev/null || true
      return 1
    fi
    if engine_answers "$OWN_HOST"; then
      echo "$pid" >"$PIDFILE"
      return 0
    fi
    sleep 0.5
  done
  say "dockerd did not answer within 60 s; stopping it"
  kill "$pid" 2>/dev/null || true
  return 1
}

ensure_dockerd() {
  local pid i
  pid=$(pid_of "$PIDFILE")
  if pid_is "$pid" dockerd; then
    # Ours runs; it may still be starting up.
    for ((i = 0; i < 120; i++)); do
      engine_answers "$OWN_HOST" && { say "reusing dockerd (pid $pid) at $OWN_HOST"; return 0; }
      pid_alive "$pid" || break
      sleep 0.5
    done
    pid_alive "$pid" && die "dockerd pid $pid runs but $OWN_HOST does not answer; run: scripts/test-env.sh stop"
  fi
  [[ $(id -u) -eq 0 ]] || die "starting a test dockerd needs root; run as root, or set BERTH_TEST_DOCKER_HOST to an engine you can use"
  command -v dockerd >/dev/null 2>&1 || die "dockerd not found; install as root: apt-get install -y docker.io"
  rm -f "$PIDFILE" "$MARKER"
  cleanup_mounts

  pick_slot
  local iptables=true
  if other_dockerd_running; then
    # Two daemons managing the same DOCKER iptables chains would flush each other's rules.
    say "another dockerd is running; starting ours with --iptables=false (own bridge $BRIDGE, $BRIDGE_CIDR)"
    iptables=false
  fi
  say "starting dockerd at $OWN_HOST (data-root .test-env/docker, log .test-env/dockerd.log)"
  if ! start_dockerd "$iptables"; then
    if [[ "$iptables" == true ]] && { grep -E 'failed to start daemon|level=(error|fatal)' "$DLOG" 2>/dev/null | grep -qiE 'iptables|xtables|netfilter'; }; then
      say "note: dockerd failed with iptables; retrying with --iptables=false --ip-masq=false"
      grep -E 'failed to start daemon|level=(error|fatal)' "$DLOG" | tail -n 3 | sed 's/^/[test-env]   /'
      cleanup_mounts
      start_dockerd false || { tail -n 30 "$DLOG" >&2; die "dockerd failed to start (see .test-env/dockerd.log)"; }
      iptables=false
    else
      tail -n 30 "$DLOG" >&2
      die "dockerd failed to start (see .test-env/dockerd.log)"
    fi
  fi
  printf '%s\n' "$OWN_HOST" >"$MARKER"
  say "dockerd up (pid $(pid_of "$PIDFILE"), iptables=$iptables, storage driver $("$DOCKER_CLI" -H "$OWN_HOST" info --format '{{.Driver}}' 2>/dev/null))"
  FRESH_ENGINE=1
}

# Unmount whatever a dead dockerd left under our exec-root/data-root (netns, overlay, shm mounts).
cleanup_mounts() {
  local m
  [[ -r /proc/self/mountinfo ]] || return 0
  awk '{print $5}' /proc/self/mountinfo | sed 's/\\040/ /g' |
    { grep -E "^($EXEC_ROOT|$DATA_ROOT)(/|$)" || true; } | sort -r |
    while IFS= read -r m; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
}

# ---------------------------------------------------------------------------------------------
# registry
# ---------------------------------------------------------------------------------------------
ensure_registry() {
  if registry_answers; then
    say "reusing registry at $REGISTRY"
    return 0
  fi
  command -v docker-registry >/dev/null 2>&1 || die "docker-registry not found; install as root: apt-get install -y docker-registry"
  local pid
  pid=$(pid_of "$REG_PIDFILE")
  pid_is "$pid" docker-registry && { kill "$pid" 2>/dev/null || true; sleep 0.5; }
  mkdir -p "$STATE/registry"
  cat >"$REG_CONF" <<EOF
version: 0.1
log:
  level: warn
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: $STATE/registry
  delete:
    enabled: true
  maintenance:
    uploadpurging:
      enabled: false
http:
  addr: $REGISTRY
  headers:
    X-Content-Type-Options: [nosniff]
EOF
  [[ -f "$REG_LOG" ]] && mv -f "$REG_LOG" "$REG_LOG.1"
  setsid docker-registry serve "$REG_CONF" </dev/null >>"$REG_LOG" 2>&1 9>&- &
  pid=$!
  echo "$pid" >"$REG_PIDFILE"
  local i
  for ((i = 0; i < 60; i++)); do
    registry_answers && { say "registry up at $REGISTRY (pid $pid, storage .test-env/registry)"; return 0; }
    pid_alive "$pid" || break
    sleep 0.25
  done
  tail -n 20 "$REG_LOG" >&2
  die "registry did not answer at http://$REGISTRY/v2/ (see .test-env/registry.log)"
}

# ---------------------------------------------------------------------------------------------
# busybox test image
# ---------------------------------------------------------------------------------------------
image_label() {
  "$DOCKER_CLI" -H "$ENGINE" image inspect --format '{{index .Config.Labels "berth.test-image"}}' "$IMAGE" 2>/dev/null || true
}
registry_has_image() {
  curl -sf -m 5 -o /dev/null -I \
    -H 'Accept: application/vnd.docker.distribution.manifest.v2+json' \
    "http://$REGISTRY/v2/$IMAGE_REPO/manifests/latest"
}

build_image() {
  local busybox rootfs="$STATE/image-rootfs" f
  busybox=/bin/busybox
  [[ -x "$busybox" ]] || busybox=$(command -v busybox || true)
  [[ -x "$busybox" ]] || die "busybox not found; install as root: apt-get install -y busybox-static"
  rm -rf "$rootfs"
  mkdir -p "$rootfs"/{bin,sbin,usr/bin,usr/sbin,etc,tmp,root,var/www,home,proc,sys,dev}
  cp "$busybox" "$rootfs/bin/busybox"
  chmod 0755 "$rootfs/bin/busybox"
  "$rootfs/bin/busybox" --list-full | while IFS= read -r f; do
    [[ "$f" == bin/busybox || -z "$f" ]] && continue
    mkdir -p "$rootfs/$(dirname "$f")"
    ln -sf /bin/busybox "$rootfs/$f"
  done
  chmod 1777 "$rootfs/tmp"
  chmod 0700 "$rootfs/root"
  cat >"$rootfs/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
daemon:x:1:1:daemon:/usr/sbin:/bin/false
www-data:x:33:33:www-data:/var/www:/bin/false
nobody:x:65534:65534:nobody:/home:/bin/false
EOF
  cat >"$rootfs/etc/group" <<'EOF'
root:x:0:
daemon:x:1:
www-data:x:33:
nogroup:x:65534:
EOF
  echo 'berth-test busybox image' >"$rootfs/var/www/index.html"
  # Reproducible layer: same digest on every rebuild.
  tar -C "$rootfs" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -c . |
    "$DOCKER_CLI" -H "$ENGINE" import \
      --change 'CMD ["sh"]' \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change "LABEL berth.test-image=$IMAGE_RECIPE" \
      - "$IMAGE" >/dev/null
  rm -rf "$rootfs"
}

ensure_image() {
  local label in_registry=0
  label=$(image_label)
  registry_has_image && in_registry=1
  if [[ "$label" == "$IMAGE_RECIPE" && $in_registry == 1 ]]; then
    say "reusing image $IMAGE"
    return 0
  fi
  if [[ -z "$label" && $in_registry == 1 ]]; then
    "$DOCKER_CLI" -H "$ENGINE" pull -q "$IMAGE" >/dev/null 2>&1 || true
    label=$(image_label)
    if [[ "$label" == "$IMAGE_RECIPE" ]]; then say "pulled image $IMAGE from the registry"; return 0; fi
  fi
  if [[ "$label" != "$IMAGE_RECIPE" ]]; then
    say "building image $IMAGE from busybox-static"
    build_image
  fi
  say "pushing $IMAGE"
  local out
  if ! out=$("$DOCKER_CLI" -H "$ENGINE" push "$IMAGE" 2>&1); then
    printf '%s\n' "$out" >&2
    die "docker push $IMAGE failed"
  fi
  registry_has_image || die "pushed $IMAGE but the registry does not list it"
}

# ---------------------------------------------------------------------------------------------
# docker-compose v1 smoke check (only when the engine is new, it costs about a second)
# ---------------------------------------------------------------------------------------------
check_compose() {
  command -v docker-compose >/dev/null 2>&1 || { say "warning: docker-compose not found"; return 0; }
  local dir="$STATE/compose-check" out
  mkdir -p "$dir"
  printf 'version: "2.4"\nservices:\n  probe:\n    image: %s\n' "$IMAGE" >"$dir/docker-compose.yml"
  if out=$(cd "$dir" && DOCKER_HOST="$ENGINE" timeout 60 docker-compose -p berthcheck ps 2>&1); then
    say "docker-compose $(docker-compose version --short 2>/dev/null) talks to the engine"
  else
    say "warning: docker-compose cannot talk to $ENGINE:"
    printf '%s\n' "$out" | tail -n 5 | sed 's/^/[test-env]   /'
  fi
}

write_env() {
  local owned=$1 tmp="$ENV_FILE.tmp"
  {
    echo "# written by scripts/test-env.sh; source it"
    echo "export DOCKER_HOST='$ENGINE'"
    echo "export BERTH_TEST_DOCKER_HOST='$ENGINE'"
    echo "export BERTH_TEST_REGISTRY='$REGISTRY'"
    echo "export BERTH_TEST_IMAGE='$IMAGE'"
    echo "export BERTH_TEST_HARNESS_OWNED=$owned"
    echo "export BERTH_TEST_DOCKER_CLI='$DOCKER_CLI'"
    extras_env
  } >"$tmp"
  mv -f "$tmp" "$ENV_FILE"
}

# ---------------------------------------------------------------------------------------------
cmd_start() {
  local t0=$SECONDS owned
  FRESH_ENGINE=0
  ensure_packages
  if [[ -n "${BERTH_TEST_DOCKER_HOST:-}" && "${BERTH_TEST_DOCKER_HOST}" != "$OWN_HOST" ]]; then
    ENGINE=$BERTH_TEST_DOCKER_HOST
    owned=0
    engine_answers "$ENGINE" || die "BERTH_TEST_DOCKER_HOST=$ENGINE does not answer 'docker version'"
    say "using the engine from BERTH_TEST_DOCKER_HOST=$ENGINE (not harness-owned: destructive tests skip)"
  else
    ENGINE=$OWN_HOST
    owned=1
    ensure_dockerd
  fi
  ensure_registry
  ensure_image
  ((FRESH_ENGINE)) && check_compose
  extras_start
  write_env "$owned"
  bash "$ROOT/scripts/test-env-registries.sh" # private registries with auth and TLS (issue 33)
  bash "$ROOT/scripts/test-env-git.sh" # git daemon, http-backend with basic auth, ssh (issue 34)
  bash "$ROOT/scripts/test-env-s3.sh" # an S3-compatible server (moto) checking signatures (issue 35)
  say "ready in $((SECONDS - t0)) s: DOCKER_HOST=$ENGINE image=$IMAGE (env: .test-env/env.sh)"
}

cmd_stop() {
  local pid i
  extras_stop
  pid=$(pid_of "$REG_PIDFILE")
  if pid_is "$pid" docker-registry; then
    kill "$pid" 2>/dev/null || true
    say "stopped registry (pid $pid)"
  fi
  rm -f "$REG_PIDFILE"
  # The private registries, git servers and S3 server of scripts/test-env-{registries,git,s3}.sh.
  for f in "$STATE"/registries/*.pid "$STATE/git/daemon.pid" "$STATE/git/http.pid" "$STATE/s3/moto.pid"; do
    pid=$(pid_of "$f")
    if pid_is "$pid" "$STATE/"; then
      kill "$pid" 2>/dev/null || true
      say "stopped $(basename "$(dirname "$f")") $(basename "$f" .pid) (pid $pid)"
    fi
    rm -f "$f"
  done
  pid=$(pid_of "$PIDFILE")
  if pid_is "$pid" dockerd; then
    kill "$pid" 2>/dev/null || true
    for ((i = 0; i < 60; i++)); do pid_alive "$pid" || break; sleep 0.5; done
    if pid_alive "$pid"; then kill -9 "$pid" 2>/dev/null || true; sleep 0.5; fi
    say "stopped dockerd (pid $pid)"
  fi
  # A managed containerd whose dockerd died hard may survive it; it carries our exec-root in its args.
  for pid in $(pgrep -x containerd || true); do
    if pid_is "$pid" "$EXEC_ROOT/containerd"; then kill "$pid" 2>/dev/null || true; fi
  done
  cleanup_mounts
  # Our bridge, unless another dockerd attached to it meanwhile.
  local slot
  slot=$(pid_of "$STATE/net-slot")
  if [[ -n "$slot" ]] && ! bridges_of_other_dockerds | grep -qx "berth$slot"; then
    drop_bridge "berth$slot"
  fi
  rm -f "$PIDFILE" "$MARKER" "$ENV_FILE" "$SOCK"
}

cmd_status() {
  local pid
  pid=$(pid_of "$PIDFILE")
  if pid_is "$pid" dockerd && engine_answers "$OWN_HOST"; then say "dockerd: running (pid $pid) at $OWN_HOST"; else say "dockerd: not running"; fi
  if registry_answers; then say "registry: answering at $REGISTRY"; else say "registry: not answering"; fi
  extras_status
  [[ -f "$ENV_FILE" ]] && cat "$ENV_FILE"
  return 0
}

mkdir -p "$STATE"
[[ "$RUNDIR" != "$STATE" ]] && mkdir -p "$RUNDIR"
# One harness operation at a time per checkout.
exec 9>"$STATE/lock"
flock -w 300 9 || die "another scripts/test-env.sh holds .test-env/lock"

DOCKER0_BEFORE=0
docker0_present && DOCKER0_BEFORE=1
case "${1:-start}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  purge) cmd_stop; extras_purge; rm -rf "$DATA_ROOT" "$STATE/registry"; [[ "$RUNDIR" != "$STATE" ]] && rm -rf "$RUNDIR"; rm -rf "$STATE"; say "purged .test-env" ;;
  status) cmd_status ;;
  remote-stop) remote_stop ;;
  remote-start) remote_start ;;
  *) die "usage: scripts/test-env.sh [start|stop|purge|status|remote-stop|remote-start]" ;;
esac
check_docker0 "$DOCKER0_BEFORE" "scripts/test-env.sh ${1:-start}"
((DOCKER0_BEFORE)) && say "the host's docker0 is still there"
exit 0
