# shellcheck shell=bash
# Sourced by scripts/test-env.sh (uses its STATE, RUNDIR, SLOT, IMAGE, DOCKER_CLI and helpers).
# Extra engines for environment and swarm tests, next to the harness's own dockerd:
#   remote  a second dockerd on tcp://127.0.0.1:<port> with mutual TLS (--tlsverify) and its own
#           unix socket; sshd on a loopback port lets the test user reach that socket (ssh:// hosts)
#   swarm   a third dockerd on its own unix socket, `docker swarm init`ed once (single-node manager)
# Both run with --iptables=false, so they never touch the first engine's rules, and each with a host
# bridge of its own (remote berthr<slot> 10.212.<slot>.1/24, swarm berths<slot> 10.211.<slot>.1/24),
# made before it starts and removed when it stops: a dockerd with its bridge disabled would delete the
# host's docker0. Their user networks come from address pools of their own (10.<224+slot>/16,
# 10.<234+slot>/16). TLS material, SSH keys and ports are made once and reused across restarts.

REMOTE_DIR="$STATE/remote"
REMOTE_RUN="$RUNDIR/remote"
REMOTE_SOCK="$REMOTE_RUN/docker.sock"
REMOTE_PIDFILE="$REMOTE_DIR/dockerd.pid"
TLS_DIR="$REMOTE_DIR/tls"        # server side: ca.pem server-cert.pem server-key.pem
CLIENT_TLS_DIR="$REMOTE_DIR/client" # ca.pem cert.pem key.pem (what a Berth environment uses)
WRONG_TLS_DIR="$REMOTE_DIR/wrong"   # an unrelated CA and a client cert it signed
SWARM_DIR="$STATE/swarm"
SWARM_RUN="$RUNDIR/swarm"
SWARM_SOCK="$SWARM_RUN/docker.sock"
SWARM_PIDFILE="$SWARM_DIR/dockerd.pid"
SSH_DIR="$STATE/ssh"
SSH_PIDFILE="$SSH_DIR/sshd.pid"
# sshd's StrictModes refuses an authorized_keys file below a group- or world-writable folder (a
# checkout under /tmp), so authorized_keys and the host key live outside the checkout, in a 0700
# folder of the ssh user's own, one per .test-env (named after its real path, so checkouts whose
# .test-env is a link to one harness share its folder).
SSH_SECURE_DIR="/run/berth-test/ssh-$(readlink -f "$STATE" | tr -d '\n' | sha1sum | cut -c1-12)"
SSH_USER="berth-ssh"
SOCKET_GROUP="berth-remote"

# Pids of the extra dockerds of this checkout (excluded from "another dockerd runs" checks).
own_extra_dockerd_pids() { pid_of "$REMOTE_PIDFILE"; echo; pid_of "$SWARM_PIDFILE"; echo; }

# A loopback TCP (or UDP with -u) port nobody listens on, remembered in <file> and reused.
port_free() { [[ -z "$(ss -Hln"${2:-t}" "sport = :$1" 2>/dev/null)" ]]; }
pick_port() {
  local file=$1 proto=${2:-t} p i
  p=$(pid_of "$file")
  if [[ -n "$p" ]] && port_free "$p" "$proto"; then echo "$p"; return 0; fi
  for ((i = 0; i < 200; i++)); do
    p=$((20000 + (RANDOM % 12000)))
    if port_free "$p" "$proto"; then echo "$p" >"$file"; echo "$p"; return 0; fi
  done
  die "no free loopback port found"
}

# ---------------------------------------------------------------------------------------------
# TLS (openssl, EC P-256 keys: fast to make)
# ---------------------------------------------------------------------------------------------
make_ca() { # <dir> <cn>
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 \
    -subj "/CN=$2" -keyout "$1/ca-key.pem" -out "$1/ca.pem" 2>/dev/null
}
make_cert() { # <ca dir> <out cert> <out key> <cn> <extensions>
  local csr ext
  csr=$(mktemp) ext=$(mktemp)
  printf '%s\n' "$5" >"$ext"
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=$4" \
    -keyout "$3" -out "$csr" 2>/dev/null
  openssl x509 -req -in "$csr" -CA "$1/ca.pem" -CAkey "$1/ca-key.pem" -CAcreateserial \
    -days 3650 -extfile "$ext" -out "$2" 2>/dev/null
  rm -f "$csr" "$ext"
  chmod 0600 "$3"
}
ensure_tls() {
  [[ -s "$CLIENT_TLS_DIR/key.pem" && -s "$WRONG_TLS_DIR/key.pem" && -s "$TLS_DIR/server-key.pem" ]] && return 0
  command -v openssl >/dev/null 2>&1 || die "openssl not found; install as root: apt-get install -y openssl"
  rm -rf "$TLS_DIR" "$CLIENT_TLS_DIR" "$WRONG_TLS_DIR"
  mkdir -p "$TLS_DIR" "$CLIENT_TLS_DIR" "$WRONG_TLS_DIR"
  chmod 0700 "$TLS_DIR"
  make_ca "$TLS_DIR" "berth-test remote CA"
  make_cert "$TLS_DIR" "$TLS_DIR/server-cert.pem" "$TLS_DIR/server-key.pem" localhost \
    $'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth'
  make_cert "$TLS_DIR" "$CLIENT_TLS_DIR/cert.pem" "$CLIENT_TLS_DIR/key.pem" berth-test-client \
    'extendedKeyUsage=clientAuth'
  cp "$TLS_DIR/ca.pem" "$CLIENT_TLS_DIR/ca.pem"
  make_ca "$WRONG_TLS_DIR" "berth-test unrelated CA"
  make_cert "$WRONG_TLS_DIR" "$WRONG_TLS_DIR/cert.pem" "$WRONG_TLS_DIR/key.pem" berth-test-stranger \
    'extendedKeyUsage=clientAuth'
  rm -f "$WRONG_TLS_DIR/ca-key.pem" "$WRONG_TLS_DIR"/*.srl "$TLS_DIR"/*.srl
  say "made TLS material in .test-env/remote (CA, server cert for 127.0.0.1/localhost, client certs)"
}

# ---------------------------------------------------------------------------------------------
# Extra dockerds
# ---------------------------------------------------------------------------------------------
remote_bridge() { echo "berthr$SLOT"; }
swarm_bridge() { echo "berths$SLOT"; }

# launch_engine <name> <dir> <rundir> <pidfile> <bridge> <bridge cidr> <extra dockerd args...>: starts it
# in the background (does not wait); LAUNCHED_PID holds the pid.
launch_engine() {
  local name=$1 dir=$2 run=$3 pidfile=$4 bridge=$5
  make_bridge "$5" "$6"
  shift 6
  mkdir -p "$dir/docker" "$run/exec"
  [[ -f "$dir/daemon.json" ]] || echo '{}' >"$dir/daemon.json"
  rm -f "$run/docker.sock"
  forget_networks "$dir/docker"
  local args=(
    --host "unix://$run/docker.sock"
    --data-root "$dir/docker"
    --exec-root "$run/exec"
    --pidfile "$pidfile"
    --config-file "$dir/daemon.json"
    --containerd-namespace "berth-$name"
    --containerd-plugins-namespace "berth-$name-plugins"
    --bridge "$bridge"
    --iptables=false --ip-masq=false --ip-forward=false
    --shutdown-timeout 2
    "$@"
  )
  [[ -n "${BERTH_TEST_STORAGE_DRIVER:-}" ]] && args+=(--storage-driver "$BERTH_TEST_STORAGE_DRIVER")
  [[ -f "$dir/dockerd.log" ]] && mv -f "$dir/dockerd.log" "$dir/dockerd.log.1"
  printf '%s\n' "${args[*]}" >"$dir/dockerd.args"
  setsid dockerd "${args[@]}" </dev/null >>"$dir/dockerd.log" 2>&1 9>&- &
  LAUNCHED_PID=$!
}

# wait_engine <name> <pid> <host> <pidfile> <log>
wait_engine() {
  local i
  for ((i = 0; i < 120; i++)); do
    if ! pid_alive "$2"; then
      tail -n 20 "$5" >&2
      die "$1 dockerd exited while starting (see ${5#"$ROOT"/})"
    fi
    if engine_answers "$3"; then echo "$2" >"$4"; return 0; fi
    sleep 0.25
  done
  kill "$2" 2>/dev/null || true
  die "$1 dockerd did not answer within 30 s (see ${5#"$ROOT"/})"
}

engine_running() { local pid; pid=$(pid_of "$1"); pid_is "$pid" dockerd && engine_answers "$2"; }

# stop_engine <name> <pidfile> <rundir> <datadir> <bridge>
stop_engine() {
  local pid i
  pid=$(pid_of "$2")
  if pid_is "$pid" dockerd; then
    kill "$pid" 2>/dev/null || true
    for ((i = 0; i < 60; i++)); do pid_alive "$pid" || break; sleep 0.25; done
    if pid_alive "$pid"; then kill -9 "$pid" 2>/dev/null || true; sleep 0.5; fi
    say "stopped $1 dockerd (pid $pid)"
  fi
  for pid in $(pgrep -x containerd || true); do
    if pid_is "$pid" "$3/exec/containerd"; then kill "$pid" 2>/dev/null || true; fi
  done
  EXEC_ROOT="$3/exec" DATA_ROOT="$4" cleanup_mounts
  drop_bridge "$5"
  rm -f "$2" "$3/docker.sock"
}
stop_remote() { stop_engine remote "$REMOTE_PIDFILE" "$REMOTE_RUN" "$REMOTE_DIR/docker" "$(remote_bridge)"; }
stop_swarm() { stop_engine swarm "$SWARM_PIDFILE" "$SWARM_RUN" "$SWARM_DIR/docker" "$(swarm_bridge)"; }

launch_remote() {
  local port
  port=$(pick_port "$REMOTE_DIR/port")
  launch_engine remote "$REMOTE_DIR" "$REMOTE_RUN" "$REMOTE_PIDFILE" "$(remote_bridge)" "10.212.$SLOT.1/24" \
    --host "tcp://127.0.0.1:$port" --tlsverify \
    --tlscacert "$TLS_DIR/ca.pem" --tlscert "$TLS_DIR/server-cert.pem" --tlskey "$TLS_DIR/server-key.pem" \
    --group "$SOCKET_GROUP" --default-address-pool "base=10.$((224 + SLOT)).0.0/16,size=24"
}

launch_swarm() {
  # The swarm's docker_gwbridge went with the network store (forget_networks): make the swarm anew
  # (ensure_swarm_init), or dockerd would make docker_gwbridge under its default, host-wide name.
  rm -rf "$SWARM_DIR/docker/swarm"
  launch_engine swarm "$SWARM_DIR" "$SWARM_RUN" "$SWARM_PIDFILE" "$(swarm_bridge)" "10.211.$SLOT.1/24" \
    --default-address-pool "base=10.$((234 + SLOT)).0.0/16,size=24"
}

# Swarm init once; the state lives in the data-root and survives restarts. Slot 0 (CI) advertises
# 127.0.0.1; other slots 127.0.0.<10+slot>, since swarm's gossip always binds <addr>:7946.
# docker_gwbridge is made beforehand with a host bridge named berthgw<slot> (Docker's default name
# docker_gwbridge would be shared by every swarm engine on the host).
ensure_swarm_init() {
  local host="unix://$SWARM_SOCK" state addr port dport gw
  addr=127.0.0.1
  ((SLOT == 0)) || addr="127.0.0.$((10 + SLOT))"
  state=$("$DOCKER_CLI" -H "$host" info --format '{{.Swarm.LocalNodeState}} {{.Swarm.NodeAddr}}' 2>/dev/null || true)
  gw=$("$DOCKER_CLI" -H "$host" network inspect docker_gwbridge \
    --format '{{index .Options "com.docker.network.bridge.name"}}' 2>/dev/null || true)
  [[ "$state" == "active $addr" && "$gw" == "berthgw$SLOT" ]] && return 0
  if [[ "$state" == active* ]]; then
    say "swarm engine was set up for another slot ($state, bridge $gw); leaving that swarm"
    timeout 60 "$DOCKER_CLI" -H "$host" swarm leave --force >/dev/null || die "docker swarm leave failed on the swarm engine"
  fi
  if [[ "$gw" != "berthgw$SLOT" ]]; then
    [[ -n "$gw" ]] && "$DOCKER_CLI" -H "$host" network rm docker_gwbridge >/dev/null
    "$DOCKER_CLI" -H "$host" network create --driver bridge --subnet "10.$((234 + SLOT)).255.0/24" \
      --opt "com.docker.network.bridge.name=berthgw$SLOT" \
      --opt com.docker.network.bridge.enable_icc=false \
      --opt com.docker.network.bridge.enable_ip_masquerade=false \
      docker_gwbridge >/dev/null || die "creating docker_gwbridge on the swarm engine failed"
  fi
  port=$(pick_port "$SWARM_DIR/listen-port")
  dport=$(pick_port "$SWARM_DIR/data-path-port" u)
  timeout 60 "$DOCKER_CLI" -H "$host" swarm init --advertise-addr "$addr:$port" \
    --listen-addr "$addr:$port" --data-path-port "$dport" \
    --default-addr-pool "10.$((244 + SLOT)).0.0/16" >/dev/null ||
    die "docker swarm init failed on the swarm engine (see .test-env/swarm/dockerd.log)"
  say "swarm initialised (manager on $addr:$port, data path port $dport, bridge berthgw$SLOT)"
}

prepull() { # <host>
  "$DOCKER_CLI" -H "$1" image inspect "$IMAGE" >/dev/null 2>&1 && return 0
  timeout 60 "$DOCKER_CLI" -H "$1" pull -q "$IMAGE" >/dev/null || die "pulling $IMAGE into $1 failed"
}

# ---------------------------------------------------------------------------------------------
# sshd for ssh:// environments
# ---------------------------------------------------------------------------------------------
ensure_ssh_user() {
  getent group "$SOCKET_GROUP" >/dev/null || groupadd --system "$SOCKET_GROUP"
  if ! id "$SSH_USER" >/dev/null 2>&1; then
    useradd --create-home --shell /bin/sh --groups "$SOCKET_GROUP" "$SSH_USER"
  fi
  id -nG "$SSH_USER" | tr ' ' '\n' | grep -qx "$SOCKET_GROUP" || usermod -aG "$SOCKET_GROUP" "$SSH_USER"
  # '*': no password, yet not a locked account (sshd without PAM refuses locked ones).
  [[ "$(getent shadow "$SSH_USER" | cut -d: -f2)" == '*' ]] || usermod -p '*' "$SSH_USER"
}

ensure_ssh_keys() {
  mkdir -p "$SSH_DIR" "$SSH_SECURE_DIR"
  chmod 0755 "$SSH_DIR" /run/berth-test
  [[ -s "$SSH_SECURE_DIR/host_ed25519" ]] || ssh-keygen -q -t ed25519 -N '' -C berth-test-host -f "$SSH_SECURE_DIR/host_ed25519"
  [[ -s "$SSH_DIR/id_ed25519" ]] || ssh-keygen -q -t ed25519 -N '' -C berth-test-user -f "$SSH_DIR/id_ed25519"
  [[ -s "$SSH_DIR/wrong_ed25519" ]] || ssh-keygen -q -t ed25519 -N '' -C berth-test-stranger -f "$SSH_DIR/wrong_ed25519"
  # sshd reads authorized_keys as the ssh user: the folder is theirs (0700), the host key root's (0600).
  cp "$SSH_DIR/id_ed25519.pub" "$SSH_SECURE_DIR/authorized_keys"
  chown "$SSH_USER:" "$SSH_SECURE_DIR" "$SSH_SECURE_DIR/authorized_keys"
  chmod 0700 "$SSH_SECURE_DIR"
  chmod 0600 "$SSH_SECURE_DIR/authorized_keys"
  rm -f "$SSH_DIR/authorized_keys" "$SSH_DIR/host_ed25519" "$SSH_DIR/host_ed25519.pub"
}

ssh_answers() { timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1 && head -c 4 <&3" 2>/dev/null | grep -q SSH-; }

ensure_sshd() {
  local pid port
  [[ -x /usr/sbin/sshd ]] || die "sshd not found; install as root: apt-get install -y openssh-server"
  ensure_ssh_user
  ensure_ssh_keys
  pid=$(pid_of "$SSH_PIDFILE")
  port=$(pid_of "$SSH_DIR/port")
  if pid_is "$pid" "$SSH_DIR/sshd_config" && [[ -n "$port" ]] && ssh_answers "$port"; then
    if [[ "$(sshd_config "$port")" == "$(cat "$SSH_DIR/sshd_config")" ]]; then
      say "reusing sshd (pid $pid) on 127.0.0.1:$port"
      return 0
    fi
    say "sshd (pid $pid) runs an older configuration; restarting it"
    stop_sshd
  fi
  port=$(pick_port "$SSH_DIR/port")
  sshd_config "$port" >"$SSH_DIR/sshd_config"
  mkdir -p /run/sshd
  chmod 0755 /run/sshd
  /usr/sbin/sshd -t -f "$SSH_DIR/sshd_config" || die "sshd rejects .test-env/ssh/sshd_config"
  [[ -f "$SSH_DIR/sshd.log" ]] && mv -f "$SSH_DIR/sshd.log" "$SSH_DIR/sshd.log.1"
  /usr/sbin/sshd -f "$SSH_DIR/sshd_config" -E "$SSH_DIR/sshd.log"
  local i
  for ((i = 0; i < 40; i++)); do
    ssh_answers "$port" && { say "sshd up on 127.0.0.1:$port (user $SSH_USER, key .test-env/ssh/id_ed25519)"; return 0; }
    sleep 0.25
  done
  die "sshd did not answer on 127.0.0.1:$port (see .test-env/ssh/sshd.log)"
}

sshd_config() { # <port>
  cat <<EOF
Port $1
ListenAddress 127.0.0.1
HostKey $SSH_SECURE_DIR/host_ed25519
PidFile $SSH_PIDFILE
AuthorizedKeysFile $SSH_SECURE_DIR/authorized_keys
AllowUsers $SSH_USER
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin no
X11Forwarding no
AllowTcpForwarding yes
SetEnv DOCKER_HOST=unix://$REMOTE_SOCK
Subsystem sftp internal-sftp
EOF
}

stop_sshd() {
  local pid
  pid=$(pid_of "$SSH_PIDFILE")
  if pid_is "$pid" "$SSH_DIR/sshd_config"; then
    kill "$pid" 2>/dev/null || true
    say "stopped sshd (pid $pid)"
  fi
  rm -f "$SSH_PIDFILE"
}

# ---------------------------------------------------------------------------------------------
# Entry points used by test-env.sh
# ---------------------------------------------------------------------------------------------
# Starts whatever of remote, sshd and swarm is missing; the two dockerds start in parallel.
extras_start() {
  if [[ $(id -u) -ne 0 ]]; then
    say "note: the remote, ssh and swarm test engines need root; not started"
    EXTRAS_UP=0
    return 0
  fi
  local rpid="" spid="" t0=$EPOCHREALTIME
  load_slot
  ensure_tls
  ensure_ssh_user
  mkdir -p "$REMOTE_RUN" "$SWARM_RUN"
  if engine_running "$REMOTE_PIDFILE" "unix://$REMOTE_SOCK"; then
    say "reusing remote dockerd (pid $(pid_of "$REMOTE_PIDFILE"))"
  else
    stop_remote
    launch_remote
    rpid=$LAUNCHED_PID
  fi
  if engine_running "$SWARM_PIDFILE" "unix://$SWARM_SOCK"; then
    say "reusing swarm dockerd (pid $(pid_of "$SWARM_PIDFILE"))"
  else
    stop_swarm
    launch_swarm
    spid=$LAUNCHED_PID
  fi
  ensure_sshd
  if [[ -n "$rpid" ]]; then
    wait_engine remote "$rpid" "unix://$REMOTE_SOCK" "$REMOTE_PIDFILE" "$REMOTE_DIR/dockerd.log"
    say "remote dockerd up (pid $rpid) at tcp://127.0.0.1:$(pid_of "$REMOTE_DIR/port") (TLS) and unix://$REMOTE_SOCK"
  fi
  if [[ -n "$spid" ]]; then
    wait_engine swarm "$spid" "unix://$SWARM_SOCK" "$SWARM_PIDFILE" "$SWARM_DIR/dockerd.log"
    say "swarm dockerd up (pid $spid) at unix://$SWARM_SOCK"
  fi
  ensure_swarm_init
  prepull "unix://$REMOTE_SOCK"
  prepull "unix://$SWARM_SOCK"
  EXTRAS_UP=1
  say "remote, ssh and swarm engines ready in $(awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $t0 }") s"
}

extras_env() {
  ((${EXTRAS_UP:-0})) || return 0
  echo "export BERTH_TEST_REMOTE_HOST='tcp://127.0.0.1:$(pid_of "$REMOTE_DIR/port")'"
  echo "export BERTH_TEST_REMOTE_SOCKET='unix://$REMOTE_SOCK'"
  echo "export BERTH_TEST_REMOTE_TLS_DIR='$CLIENT_TLS_DIR'"
  echo "export BERTH_TEST_WRONG_TLS_DIR='$WRONG_TLS_DIR'"
  echo "export BERTH_TEST_SSH_HOST='127.0.0.1'"
  echo "export BERTH_TEST_SSH_PORT='$(pid_of "$SSH_DIR/port")'"
  echo "export BERTH_TEST_SSH_USER='$SSH_USER'"
  echo "export BERTH_TEST_SSH_KEY='$SSH_DIR/id_ed25519'"
  echo "export BERTH_TEST_SSH_WRONG_KEY='$SSH_DIR/wrong_ed25519'"
  echo "export BERTH_TEST_SSH_HOST_KEY='$(cut -d' ' -f1,2 "$SSH_SECURE_DIR/host_ed25519.pub")'"
  echo "export BERTH_TEST_SWARM_HOST='unix://$SWARM_SOCK'"
}

extras_stop() {
  load_slot
  stop_sshd
  stop_remote
  stop_swarm
  # The swarm engine's gateway bridge (made again from its network store on the next start).
  drop_bridge "berthgw$SLOT"
}

# purge: also the ssh folder outside the checkout.
extras_purge() { rm -rf "$SSH_SECURE_DIR"; }

extras_status() {
  if engine_running "$REMOTE_PIDFILE" "unix://$REMOTE_SOCK"; then
    say "remote dockerd: running (pid $(pid_of "$REMOTE_PIDFILE")) at tcp://127.0.0.1:$(pid_of "$REMOTE_DIR/port") and unix://$REMOTE_SOCK"
  else say "remote dockerd: not running"; fi
  if engine_running "$SWARM_PIDFILE" "unix://$SWARM_SOCK"; then
    say "swarm dockerd: running (pid $(pid_of "$SWARM_PIDFILE")) at unix://$SWARM_SOCK"
  else say "swarm dockerd: not running"; fi
  local port
  port=$(pid_of "$SSH_DIR/port")
  if [[ -n "$port" ]] && pid_is "$(pid_of "$SSH_PIDFILE")" "$SSH_DIR/sshd_config" && ssh_answers "$port"; then
    say "sshd: running on 127.0.0.1:$port"
  else say "sshd: not running"; fi
}

# remote-stop / remote-start: take only the remote dockerd down and back up (same port, socket, TLS).
remote_stop() { load_slot; stop_remote; }
remote_start() {
  [[ $(id -u) -eq 0 ]] || die "starting the remote dockerd needs root"
  if engine_running "$REMOTE_PIDFILE" "unix://$REMOTE_SOCK"; then say "remote dockerd already runs"; return 0; fi
  ensure_tls
  load_slot
  stop_remote
  mkdir -p "$REMOTE_RUN"
  launch_remote
  wait_engine remote "$LAUNCHED_PID" "unix://$REMOTE_SOCK" "$REMOTE_PIDFILE" "$REMOTE_DIR/dockerd.log"
  say "remote dockerd up (pid $LAUNCHED_PID)"
}
