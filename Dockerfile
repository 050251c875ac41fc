# Berth as a container image. Build: scripts/build-image.sh (or `docker build -t berth .`).
#
# BASE            a Debian bookworm image with Node 20 at /usr/local (node, npm, include/node)
# DOCKER_CLI_IMAGE an image with a static docker CLI at /usr/local/bin/docker and its plugins
#                 (compose v2) in /usr/local/libexec/docker/cli-plugins/
# COMPOSE_V1      true: also install Debian's docker-compose (v1), for a CLI image without compose v2
# Works with the classic builder as well as BuildKit (no BuildKit-only syntax).
ARG BASE=node:20-bookworm-slim
ARG DOCKER_CLI_IMAGE=docker:27-cli

FROM ${DOCKER_CLI_IMAGE} AS dockercli

# --- web app and server bundle -------------------------------------------------------------
FROM ${BASE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
# No install scripts: nothing native is needed to build (native modules come from the deps stage).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.base.json ./
COPY contract contract
COPY server/src server/src
COPY web web
RUN npm run build -w web
# The server bundle, built by the same script as `npm start` (scripts/build-server.mjs), so the
# image and `npm start` run the same bundle.
COPY scripts/build-server.mjs scripts/
RUN node scripts/build-server.mjs

# --- production dependencies of the server -------------------------------------------------
FROM ${BASE} AS deps
# better-sqlite3 compiles from source when its prebuilt binary cannot be downloaded.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local
WORKDIR /app
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
RUN npm ci --omit=dev --no-audit --no-fund -w server -w contract \
 && keep="linux-$(node -p process.arch)" \
 && find node_modules/argon2/prebuilds -mindepth 1 -maxdepth 1 ! -name "$keep" -exec rm -rf {} + \
 && rm -rf node_modules/@berth /root/.npm \
 && node -e "require('better-sqlite3')(':memory:').close(); require('argon2')"
# npm nests a server dependency under server/ when the root holds another version of it.
RUN mkdir -p server/node_modules

# --- runtime ---------------------------------------------------------------------------------
FROM ${BASE}
ARG COMPOSE_V1=false
# tini reaps the compose CLI's grandchildren; Berth itself handles SIGTERM.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini ca-certificates \
 && if [ "$COMPOSE_V1" = true ]; then apt-get install -y --no-install-recommends docker-compose; fi \
 && rm -rf /var/lib/apt/lists/*
COPY --from=dockercli /usr/local/bin/docker /usr/local/bin/docker
COPY --from=dockercli /usr/local/libexec/docker/cli-plugins/ /usr/local/libexec/docker/cli-plugins/
WORKDIR /app
COPY package.json ./
COPY --from=deps /app/node_modules node_modules
COPY --from=deps /app/server/node_modules server/node_modules
COPY --from=build /src/server/dist server/dist
COPY --from=build /src/web/dist web/dist
# /config holds the database, the signing key and the compose projects. Berth runs as the
# unprivileged `node` user (uid 1000); give it the Docker socket's group with `group_add`.
RUN mkdir -p /config && chown node:node /config
ENV NODE_ENV=production DATA_DIR=/config HOST=0.0.0.0 PORT=8000
VOLUME /config
EXPOSE 8000
USER node
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# Memory flags, each measured on idle RSS (scripts/bench, README Performance); `npm start` passes
# the same: a 2 MB young generation (V8's default grows to 16 MB per semi-space, ~20 MB), one V8
# worker thread and two malloc arenas (each thread's arena keeps what compiling at start freed,
# ~8 MB), V8's size-over-speed heuristics (~4 MB), a 4 MB budget before the optimizing compiler
# takes a function (V8's default is 66 KB), so code that stays hot (a log flood, a stats stream)
# is still optimized but what runs a few hundred times at start is not (~6 MB), and a fixed mmap
# threshold: blocks of 256 KB and more go back to the system when freed (glibc's moving threshold
# kept argon2's 19 MB working memory after the first sign-in, ~20 MB).
# scripts/start-command.test.ts holds these equal to the start script's.
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=262144
CMD ["node", "--max-semi-space-size=2", "--v8-pool-size=1", "--optimize-for-size", "--interrupt-budget=4194304", "/app/server/dist/main.mjs"]
