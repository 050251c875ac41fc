#!/usr/bin/env bash
# `npm run bench`: measures Berth against the raw engine on the test engine (scripts/test-env.sh),
# and prints figures as ratios measured in the same run (no timed assertions). Bounded to a few
# minutes; removes everything it made (containers labelled berth.bench=1).
#   BENCH_LIST_CONTAINERS (default 500)  BENCH_STATS_APPS (default 50)  BENCH_VIEWERS (default 10)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"

if [[ ! -d node_modules ]]; then
  echo "[bench] node_modules missing: npm ci"
  npm ci --no-audit --no-fund
fi

# Engine, registry, image; exports DOCKER_HOST, BERTH_TEST_IMAGE, BERTH_TEST_DOCKER_CLI...
bash scripts/test-env.sh
# shellcheck source=/dev/null
source .test-env/env.sh

exec timeout --kill-after=10 300 npx tsx scripts/bench/apps.ts "$@"
