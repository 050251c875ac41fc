#!/usr/bin/env bash
# `npm test`: lints and typechecks, prepares the test engine (scripts/test-env.sh), builds the web
# app when there is one, runs every vitest project, and closes with the line CI reads:
# "N passed, N failed[, N skipped]".
# Extra arguments go to vitest (e.g. `npm test -- --project unit`, `npm test -- server/test/foo.test.ts`).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# One stream, in order: the summary line stays the last line whoever reads stdout or both.
exec 2>&1
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"

if [[ ! -d node_modules ]]; then
  echo "[test] node_modules missing: npm ci"
  npm ci --no-audit --no-fund
fi

# Lint and typecheck come first. A finding fails the run, but the tests still run and report, and
# the summary line stays the last line.
summary_args=()
echo "[test] lint (npm run lint)"
if ! npm run --silent lint; then
  echo "[test] lint FAILED; running the tests anyway, the run fails"
  summary_args+=("--extra-failure=lint (npm run lint) reported problems")
fi
echo "[test] typecheck (npm run typecheck: contract, server, web, e2e)"
if ! npm run --silent typecheck; then
  echo "[test] typecheck FAILED; running the tests anyway, the run fails"
  summary_args+=("--extra-failure=typecheck (npm run typecheck) reported errors")
fi

# Engine, registry, image; exports DOCKER_HOST, BERTH_TEST_DOCKER_HOST, BERTH_TEST_REGISTRY,
# BERTH_TEST_IMAGE, BERTH_TEST_HARNESS_OWNED, BERTH_TEST_DOCKER_CLI.
bash scripts/test-env.sh
# shellcheck source=/dev/null
source .test-env/env.sh

export BERTH_CHROMIUM="${BERTH_CHROMIUM:-/usr/bin/chromium}"

# e2e serves the built web app. A failed build fails the run, but the tests still run and report.
if [[ "${BERTH_SKIP_WEB_BUILD:-0}" == 1 ]]; then
  echo "[test] BERTH_SKIP_WEB_BUILD=1: skipping the web build"
elif [[ -d web ]] && compgen -G 'web/vite.config.*' >/dev/null; then
  echo "[test] building web (npm run build -w web)"
  if ! npm run build -w web --silent; then
    echo "[test] web build FAILED; running the tests anyway, the run fails"
    summary_args+=("--extra-failure=the web build (npm run build -w web) failed")
  fi
else
  echo "[test] no web/vite.config.*: skipping the web build"
fi

# e2e runs the server as `npm start` does: the esbuild bundle (server/dist/main.mjs) under plain node.
echo "[test] building the server bundle (scripts/build-server.mjs)"
if ! node scripts/build-server.mjs; then
  echo "[test] server bundle build FAILED; running the tests anyway, the run fails"
  summary_args+=("--extra-failure=the server bundle (node scripts/build-server.mjs) failed to build")
fi

mkdir -p test-results
rm -f test-results/vitest.json
rc=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@" || rc=$?

summary_rc=0
node scripts/test-summary.mjs test-results/vitest.json "--vitest-exit=$rc" ${summary_args[@]+"${summary_args[@]}"} || summary_rc=$?
if ((rc != 0)); then exit "$rc"; fi
exit "$summary_rc"
