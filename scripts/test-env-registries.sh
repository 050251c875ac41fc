#!/usr/bin/env bash
# Private registries for the registry-credential tests (issue 33), beside the harness's open registry:
#   - one docker-registry with htpasswd basic auth over plain HTTP on a free loopback port;
#   - one with TLS (a CA and a server certificate for 127.0.0.1 made here with openssl) and the same auth.
# Each gets the busybox test image pushed as private/busybox:latest (the TLS one private/tools:1.0 too). Idempotent: registries that still
# answer are reused (their ports, password and certificates are kept in .test-env/registries/).
# Called by scripts/test-env.sh start after env.sh is written; run it directly to (re)start only this part.
# Adds its BERTH_TEST_PRIVATE_* lines to .test-env/env.sh.
#
# Trust: the engine treats every registry on 127.0.0.0/8 as "insecure" (it tries HTTPS and does not verify
# the certificate), so loopback cannot show the engine refusing an unknown CA, and writing the CA into the
# host-wide /etc/docker/certs.d would change every engine on the machine. The engine therefore pulls from
# the TLS registry without the CA; what the CA is tested for is Berth's own calls (test, browse, digest),
# which refuse the registry without it and accept it with it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE="$(realpath "$ROOT/.test-env")"
DIR="$STATE/registries"
ENV_FILE="$STATE/env.sh"
USER_NAME=berth-private
IMAGE_PATH=private/busybox:latest

say() { printf '[test-env-registries] %s\n' "$*"; }
die() { printf '[test-env-registries] ERROR: %s\n' "$*" >&2; exit 1; }

[[ -f "$ENV_FILE" ]] || die "no $ENV_FILE: run scripts/test-env.sh first"
# shellcheck disable=SC1090
source "$ENV_FILE"
command -v htpasswd >/dev/null 2>&1 || apt-get install -y apache2-utils >/dev/null 2>&1 ||
  die "htpasswd not found; install as root: apt-get install -y apache2-utils"
command -v docker-registry >/dev/null 2>&1 || die "docker-registry not found"

mkdir -p "$DIR"
chmod 0700 "$DIR"
exec 8>"$DIR/lock"
flock -w 120 8 || die "another test-env-registries.sh holds $DIR/lock"

pid_alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }
pid_is() { pid_alive "$1" && tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -q -- "$2"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# 401 with a Basic challenge: a registry asking for our credentials (the open one answers 200).
answers() {
  local code
  code=$(curl -s -m 3 -o /dev/null -w '%{http_code}' ${3:+--cacert "$3"} "$1://127.0.0.1:$2/v2/") || true
  [[ "$code" == 401 ]]
}

# The password, made once (0600), never on a command line.
if [[ ! -s "$DIR/password" ]]; then
  (umask 077 && head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$DIR/password")
fi
PASSWORD=$(cat "$DIR/password")
if [[ ! -s "$DIR/htpasswd" ]]; then
  printf '%s' "$PASSWORD" | htpasswd -B -i -c "$DIR/htpasswd" "$USER_NAME" 2>/dev/null
fi

# CA and a server certificate for 127.0.0.1 (and localhost).
if [[ ! -s "$DIR/tls/server-cert.pem" ]]; then
  mkdir -p "$DIR/tls"
  (
    cd "$DIR/tls"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj '/CN=Berth test registry CA' \
      -keyout ca-key.pem -out ca.pem 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj '/CN=127.0.0.1' -keyout server-key.pem -out server.csr 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >ext.cnf
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 3650 \
      -extfile ext.cnf -out server-cert.pem 2>/dev/null
    rm -f server.csr ext.cnf ca.srl
    chmod 0600 ca-key.pem server-key.pem
  )
fi

# start_registry NAME SCHEME: reuses a running one, else starts it on its kept port (or a new free one).
start_registry() {
  local name=$1 scheme=$2 ca="" port pid conf="$DIR/$1.yml" i
  [[ "$scheme" == https ]] && ca="$DIR/tls/ca.pem"
  port=$(cat "$DIR/$name.port" 2>/dev/null || true)
  pid=$(cat "$DIR/$name.pid" 2>/dev/null || true)
  if [[ -n "$port" ]] && pid_is "$pid" "$conf" && answers "$scheme" "$port" "$ca"; then
    say "reusing $name registry at 127.0.0.1:$port (pid $pid)"
    echo "$port" >"$DIR/$name.port"
    return 0
  fi
  pid_is "$pid" "$conf" && { kill "$pid" 2>/dev/null || true; sleep 0.5; }
  if [[ -z "$port" ]] || ! python3 -c "import socket,sys; s=socket.socket(); s.bind(('127.0.0.1',$port))" 2>/dev/null; then
    port=$(free_port)
  fi
  mkdir -p "$DIR/$name-storage"
  {
    printf 'version: 0.1\nlog:\n  level: warn\n  accesslog:\n    disabled: true\n'
    printf 'storage:\n  filesystem:\n    rootdirectory: %s\n  delete:\n    enabled: true\n' "$DIR/$name-storage"
    printf 'auth:\n  htpasswd:\n    realm: berth-test\n    path: %s\n' "$DIR/htpasswd"
    printf 'http:\n  addr: 127.0.0.1:%s\n  secret: %s\n' "$port" "$(head -c 12 /dev/urandom | base64 | tr -d '/+=')"
    if [[ "$scheme" == https ]]; then
      printf '  tls:\n    certificate: %s\n    key: %s\n' "$DIR/tls/server-cert.pem" "$DIR/tls/server-key.pem"
    fi
  } >"$conf"
  setsid docker-registry serve "$conf" </dev/null >>"$DIR/$name.log" 2>&1 8>&- 9>&- &
  pid=$!
  echo "$pid" >"$DIR/$name.pid"
  echo "$port" >"$DIR/$name.port"
  for ((i = 0; i < 60; i++)); do
    answers "$scheme" "$port" "$ca" && { say "$name registry up at 127.0.0.1:$port (pid $pid)"; return 0; }
    pid_alive "$pid" || break
    sleep 0.25
  done
  tail -n 20 "$DIR/$name.log" >&2
  die "$name registry did not answer at $scheme://127.0.0.1:$port/v2/"
}

# push_image ADDRESS SCHEME: private/busybox:latest, unless the registry already has it. The login goes
# into a throwaway DOCKER_CONFIG (password on stdin), removed afterwards, and the local tag is dropped,
# so a test's pull really goes to the registry.
push_image() {
  local addr=$1 scheme=$2 path=${4:-$IMAGE_PATH} ref cfg
  ref="$addr/$path"
  if curl -sf -m 5 -o /dev/null -I -u "$USER_NAME:$PASSWORD" ${3:+--cacert "$3"} \
    -H 'Accept: application/vnd.docker.distribution.manifest.v2+json' \
    "$scheme://$addr/v2/${path%:*}/manifests/${path##*:}"; then
    return 0
  fi
  cfg=$(mktemp -d)
  (
    trap 'rm -rf "$cfg"' EXIT
    export DOCKER_CONFIG="$cfg"
    printf '%s' "$PASSWORD" | docker -H "$DOCKER_HOST" login -u "$USER_NAME" --password-stdin "$addr" >/dev/null 2>&1
    docker -H "$DOCKER_HOST" tag "$BERTH_TEST_IMAGE" "$ref"
    docker -H "$DOCKER_HOST" push -q "$ref" >/dev/null
    docker -H "$DOCKER_HOST" rmi "$ref" >/dev/null
  ) || die "pushing $ref failed"
  say "pushed $ref"
}

start_registry basic http
start_registry tls https
BASIC="127.0.0.1:$(cat "$DIR/basic.port")"
TLS="127.0.0.1:$(cat "$DIR/tls.port")"
push_image "$BASIC" http
push_image "$TLS" https "$DIR/tls/ca.pem"
# A second repository, so the catalog has more than one page at n=1.
push_image "$TLS" https "$DIR/tls/ca.pem" private/tools:1.0

tmp="$ENV_FILE.registries.tmp"
{
  grep -v '^export BERTH_TEST_PRIVATE_' "$ENV_FILE" || true
  echo "export BERTH_TEST_PRIVATE_REGISTRY='$BASIC'"
  echo "export BERTH_TEST_PRIVATE_TLS_REGISTRY='$TLS'"
  echo "export BERTH_TEST_PRIVATE_CA='$DIR/tls/ca.pem'"
  echo "export BERTH_TEST_PRIVATE_USER='$USER_NAME'"
  echo "export BERTH_TEST_PRIVATE_PASSWORD='$PASSWORD'"
  echo "export BERTH_TEST_PRIVATE_IMAGE='$BASIC/$IMAGE_PATH'"
  echo "export BERTH_TEST_PRIVATE_TLS_IMAGE='$TLS/$IMAGE_PATH'"
} >"$tmp"
mv -f "$tmp" "$ENV_FILE"
say "ready: $BASIC (basic auth), $TLS (TLS + basic auth), image $IMAGE_PATH in each"
