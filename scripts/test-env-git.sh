#!/usr/bin/env bash
# Git servers for the git-backed project tests (issue 34), on loopback, serving the bare repositories
# under .test-env/git/repos (a test makes one with `git init --bare .test-env/git/repos/<name>.git`):
#   git daemon          git://127.0.0.1:<port>/<name>.git (anonymous, read only)
#   git http-backend    http://127.0.0.1:<port>/<name>.git behind basic auth (scripts/git-http-server.mjs)
#   ssh                 ssh://berth-ssh@127.0.0.1:<sshd port>/<repos>/<name>.git through the harness's sshd,
#                       with a deploy key of its own (.test-env/git/deploy_ed25519) added to its authorized keys
# Idempotent: reuses what runs. Called by scripts/test-env.sh start (after env.sh is written), or alone;
# either way it (re)writes its BERTH_TEST_GIT_* lines in .test-env/env.sh.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STATE=$(readlink -f "$ROOT/.test-env")
DIR="$STATE/git"
REPOS="$DIR/repos"
ENV_FILE="$STATE/env.sh"
say() { printf '[test-env-git] %s\n' "$*"; }
die() { printf '[test-env-git] ERROR: %s\n' "$*" >&2; exit 1; }
pid_of() { if [[ -s "$1" ]]; then tr -dc '0-9' <"$1"; fi; }
pid_is() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null && tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -q -- "$2"; }
port_free() { [[ -z "$(ss -Hlnt "sport = :$1" 2>/dev/null)" ]]; }
pick_port() { # <file>: a free loopback port, remembered and reused
  local p i
  p=$(pid_of "$1")
  if [[ -n "$p" ]] && port_free "$p"; then echo "$p"; return 0; fi
  for ((i = 0; i < 200; i++)); do
    p=$((20000 + (RANDOM % 12000)))
    if port_free "$p"; then echo "$p" >"$1"; echo "$p"; return 0; fi
  done
  die "no free loopback port found"
}
answers() { timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

command -v git >/dev/null || die "git not found; install as root: apt-get install -y git"
mkdir -p "$REPOS"
chmod 0755 "$DIR" "$REPOS"
exec 8>"$DIR/lock"
flock -w 60 8 || die "another test-env-git.sh holds .test-env/git/lock"

# --- git daemon -------------------------------------------------------------------------------
pid=$(pid_of "$DIR/daemon.pid")
port=$(pid_of "$DIR/daemon.port")
if pid_is "$pid" "git-daemon" && [[ -n "$port" ]] && answers "$port"; then
  say "reusing git daemon (pid $pid) on 127.0.0.1:$port"
else
  port=$(pick_port "$DIR/daemon.port")
  git daemon --reuseaddr --listen=127.0.0.1 --port="$port" --base-path="$REPOS" --export-all \
    --pid-file="$DIR/daemon.pid" --detach "$REPOS" 8>&- 9>&-
  for ((i = 0; i < 40; i++)); do answers "$port" && break; sleep 0.25; done
  answers "$port" || die "git daemon did not answer on 127.0.0.1:$port"
  say "git daemon up on 127.0.0.1:$port"
fi
DAEMON_PORT=$port

# --- git http-backend behind basic auth -------------------------------------------------------
[[ -s "$DIR/http-auth" ]] || { umask 077; printf 'berth-git:%s\n' "$(head -c 18 /dev/urandom | base64 | tr -d '/+=')" >"$DIR/http-auth"; }
pid=$(pid_of "$DIR/http.pid")
port=$(pid_of "$DIR/http.port")
if pid_is "$pid" "git-http-server.mjs" && [[ -n "$port" ]] && answers "$port"; then
  say "reusing git http server (pid $pid) on 127.0.0.1:$port"
else
  port=$(pick_port "$DIR/http.port")
  setsid node "$ROOT/scripts/git-http-server.mjs" "$port" "$REPOS" "$DIR/http-auth" 8>&- 9>&- \
    </dev/null >"$DIR/http.log" 2>&1 &
  echo $! >"$DIR/http.pid"
  for ((i = 0; i < 40; i++)); do answers "$port" && break; sleep 0.25; done
  answers "$port" || die "git http server did not answer on 127.0.0.1:$port (see .test-env/git/http.log)"
  say "git http-backend (basic auth) up on 127.0.0.1:$port"
fi
HTTP_PORT=$port

# --- ssh: the harness's sshd, with a deploy key of our own ------------------------------------
SSH_LINES=()
SSH_SECURE_DIR="/run/berth-test/ssh-$(readlink -f "$STATE" | tr -d '\n' | sha1sum | cut -c1-12)"
SSH_PORT=$(pid_of "$STATE/ssh/port")
if [[ -n "$SSH_PORT" && -f "$SSH_SECURE_DIR/authorized_keys" ]] && id berth-ssh >/dev/null 2>&1; then
  [[ -s "$DIR/deploy_ed25519" ]] || ssh-keygen -q -t ed25519 -N '' -C berth-test-git-deploy -f "$DIR/deploy_ed25519"
  grep -qF "$(cut -d' ' -f2 "$DIR/deploy_ed25519.pub")" "$SSH_SECURE_DIR/authorized_keys" ||
    cat "$DIR/deploy_ed25519.pub" >>"$SSH_SECURE_DIR/authorized_keys"
  # The repositories are root's; the ssh user only reads them.
  git config --file /home/berth-ssh/.gitconfig --replace-all safe.directory '*'
  chown berth-ssh: /home/berth-ssh/.gitconfig
  SSH_LINES=(
    "export BERTH_TEST_GIT_SSH_URL='ssh://berth-ssh@127.0.0.1:$SSH_PORT$REPOS'"
    "export BERTH_TEST_GIT_SSH_KEY='$DIR/deploy_ed25519'"
  )
  say "ssh:// repositories through the harness's sshd on 127.0.0.1:$SSH_PORT (deploy key .test-env/git/deploy_ed25519)"
else
  say "note: the harness's sshd is not set up; no ssh:// git"
fi

# --- exports ----------------------------------------------------------------------------------
touch "$ENV_FILE"
{
  grep -v '^export BERTH_TEST_GIT_' "$ENV_FILE" || true
  echo "export BERTH_TEST_GIT_REPOS='$REPOS'"
  echo "export BERTH_TEST_GIT_DAEMON_URL='git://127.0.0.1:$DAEMON_PORT'"
  echo "export BERTH_TEST_GIT_HTTP_URL='http://127.0.0.1:$HTTP_PORT'"
  echo "export BERTH_TEST_GIT_HTTP_USER='$(cut -d: -f1 "$DIR/http-auth")'"
  echo "export BERTH_TEST_GIT_HTTP_TOKEN='$(cut -d: -f2 "$DIR/http-auth")'"
  printf '%s\n' "${SSH_LINES[@]}"
} >"$ENV_FILE.git.tmp"
mv -f "$ENV_FILE.git.tmp" "$ENV_FILE"
