#!/usr/bin/env bash
# `npm run bench`: measures Berth against the raw engine on the test engine (scripts/test-env.sh),
# and prints figures measured in the same run (no timed assertions). Bounded to ~60 minutes;
# removes everything it made (containers labelled berth.bench=1).
#   scripts/bench/footprint.ts: the real `npm start` process: RSS idle and with viewers, start to
#     ready, initial web JS
#   scripts/bench/list.ts: GET /api/apps/ vs the engine's list at BENCH_LIST_SIZES (default
#     500,1000,5000 containers, on a private dockerd), with the list cache and with LIST_CACHE=false,
#     interleaved
#   scripts/bench/envs.ts: 10 environments (agents and TLS engines on one private dockerd) × 200
#     containers, 50 running: Berth RSS at 1, 5 and 10, Berth CPU, the engine's cost of an agent
#     environment vs the local cgroup source (skip with BENCH_SKIP_ENVS=1)
#   scripts/bench/apps.ts: live stats on a private dockerd of its own:
#     engine and Berth CPU with the engine vs the cgroup stats source against a no-Berth baseline,
#     engine calls, samples per viewer; history disk per app (skip with BENCH_SKIP_STREAMS=1)
#   scripts/bench/logs.ts: a flooding log in Chromium: lines/s delivered, frame p95, server CPU per
#     10k lines (skip with BENCH_SKIP_LOGS=1; needs web/dist and BERTH_CHROMIUM or /usr/bin/chromium)
#   scripts/bench/rss-series.ts: the bundle's RSS at 10, 50 and 200 running apps (BENCH_RSS_APPS),
#     history on, with 10 viewers at 50, on a private dockerd; per-app slope (skip with BENCH_SKIP_RSS=1)
#   scripts/bench/soak.ts: opt-in (BENCH_SOAK_MINUTES=n; the issue's soak is 120): RSS of the npm
#     start process every minute with a dashboard and a log viewer open, and its slope
#   BENCH_STATS_APPS (default 50)  BENCH_VIEWERS (default 10)
#   BERTH_BENCH_ENV=path/to/env.sh: use an engine harness that is already running instead.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"

if [[ ! -d node_modules ]]; then
  echo "[bench] node_modules missing: npm ci"
  npm ci --no-audit --no-fund
fi

# Engine, registry, image; exports DOCKER_HOST, BERTH_TEST_IMAGE, BERTH_TEST_DOCKER_CLI...
if [[ -n "${BERTH_BENCH_ENV:-}" ]]; then
  # shellcheck source=/dev/null
  source "$BERTH_BENCH_ENV"
else
  bash scripts/test-env.sh
  # shellcheck source=/dev/null
  source .test-env/env.sh
fi

timeout --kill-after=30 1800 npx tsx scripts/bench/footprint.ts
timeout --kill-after=10 1500 npx tsx scripts/bench/list.ts
if [[ "${BENCH_SKIP_ENVS:-0}" != 1 ]]; then
  timeout --kill-after=30 1500 npx tsx scripts/bench/envs.ts
fi
if [[ "${BENCH_SKIP_STREAMS:-0}" != 1 ]]; then
  timeout --kill-after=10 480 npx tsx scripts/bench/apps.ts "$@"
fi
if [[ "${BENCH_SKIP_RSS:-0}" != 1 ]]; then
  timeout --kill-after=10 900 npx tsx scripts/bench/rss-series.ts
fi
if [[ "${BENCH_SKIP_LOGS:-0}" != 1 ]]; then
  [[ -f web/dist/index.html ]] || npm run build -w web
  timeout --kill-after=10 900 npx tsx scripts/bench/logs.ts
fi
if [[ "${BENCH_SOAK_MINUTES:-0}" != 0 ]]; then
  timeout --kill-after=30 $(( BENCH_SOAK_MINUTES * 60 + 600 )) npx tsx scripts/bench/soak.ts
fi
