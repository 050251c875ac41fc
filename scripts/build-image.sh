#!/usr/bin/env bash
# Builds Berth's container image from the Dockerfile in the repository root.
#
#   scripts/build-image.sh [-t TAG] [--local-base] [--push] [-- extra docker build arguments]
#
#   -t TAG        image name (default berth:latest)
#   --local-base  for a machine that cannot pull from Docker Hub: make the two base images
#                 locally (once; reused afterwards) and build on them:
#                   127.0.0.1:5000/berth-test/node-base:20   Debian bookworm (debootstrap from
#                       Debian's mirror) + this machine's Node 20 (node, npm, headers), its CA
#                       certificates (NODE_EXTRA_CA_CERTS) and a user node (uid 1000)
#                   127.0.0.1:5000/berth-test/docker-cli:local  this machine's docker CLI
#                 and install Debian's docker-compose (v1) as the compose CLI.
#                 Needs root, debootstrap, a node 20 on PATH and a static docker CLI.
#   --push        push TAG afterwards
#
# The docker CLI and engine are the ones in the environment (DOCKER_HOST). The build reaches only
# Debian's apt mirror and the npm registry.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TAG=berth:latest
LOCAL_BASE=false
PUSH=false
EXTRA=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -t) TAG="$2"; shift 2 ;;
    --local-base) LOCAL_BASE=true; shift ;;
    --push) PUSH=true; shift ;;
    --) shift; EXTRA=("$@"); break ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done

NODE_BASE=127.0.0.1:5000/berth-test/node-base:20
CLI_BASE=127.0.0.1:5000/berth-test/docker-cli:local
say() { printf '[build-image] %s\n' "$*" >&2; }
have_image() { docker image inspect "$1" >/dev/null 2>&1; }

# A Debian bookworm root file system with Node 20 laid out like the official node image
# (/usr/local/bin/node, /usr/local/lib/node_modules/npm, /usr/local/include/node, user node 1000).
make_node_base() {
  local node npm_dir headers rootfs
  node="$(readlink -f "$(command -v node)")"
  npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
  headers=""
  for d in "$(dirname "$(dirname "$node")")/include/node" /usr/include/node /usr/local/include/node; do
    [[ -f "$d/node_api.h" ]] && { headers="$d"; break; }
  done
  [[ "$("$node" -p 'process.versions.node.split(".")[0]')" == 20 ]] || { say "node on PATH is not Node 20"; exit 1; }
  [[ -n "$headers" ]] || { say "no Node headers (include/node) found"; exit 1; }
  command -v debootstrap >/dev/null || { say "debootstrap missing: apt-get install debootstrap"; exit 1; }
  rootfs="$(mktemp -d /tmp/berth-node-base.XXXXXX)"
  trap 'rm -rf "$rootfs"' RETURN
  say "debootstrap bookworm (minbase) into $rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >/dev/null
  install -D -m 0755 "$node" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules" "$rootfs/usr/local/include"
  cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
  cp -a "$headers" "$rootfs/usr/local/include/node"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  # This machine's trust store, so npm and apt inside the build trust what this machine trusts
  # (a TLS-inspecting egress proxy, say); kept in /usr/local/share so update-ca-certificates keeps it.
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    mkdir -p "$rootfs/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
  fi
  install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  chroot "$rootfs" groupadd --gid 1000 node
  chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["node"]' - "$NODE_BASE" >/dev/null
}

make_cli_base() {
  local cli dir
  cli="$(command -v docker)"
  file -L "$cli" 2>/dev/null | grep -q 'statically linked' || { say "$cli is not a static binary; it would not run in the image"; exit 1; }
  dir="$(mktemp -d /tmp/berth-cli-base.XXXXXX)"
  trap 'rm -rf "$dir"' RETURN
  install -D -m 0755 "$cli" "$dir/usr/local/bin/docker"
  mkdir -p "$dir/usr/local/libexec/docker/cli-plugins"
  tar -C "$dir" -c . | docker import - "$CLI_BASE" >/dev/null
}

ARGS=()
if [[ "$LOCAL_BASE" == true ]]; then
  have_image "$NODE_BASE" || make_node_base
  have_image "$CLI_BASE" || make_cli_base
  ARGS+=(--build-arg "BASE=$NODE_BASE" --build-arg "DOCKER_CLI_IMAGE=$CLI_BASE" --build-arg COMPOSE_V1=true)
fi

say "building $TAG"
# Host networking: the build's RUN steps reach apt and npm exactly as this machine does.
docker build --network host -t "$TAG" "${ARGS[@]}" "${EXTRA[@]}" "$ROOT"
if [[ "$PUSH" == true ]]; then docker push "$TAG" >/dev/null; fi
say "built $TAG ($(docker image inspect --format '{{.Size}}' "$TAG" | awk '{printf "%.0f MB", $1/1e6}'))"
