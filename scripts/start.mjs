#!/usr/bin/env node
// `npm start`: builds what is stale (the web app with vite, the server bundle with esbuild; each
// in a short-lived child so its memory is not kept), then becomes the server: the bundle is
// imported into this process, so there is one process, run by plain node with no TypeScript
// loader. The container image runs the same bundle (server/dist/main.mjs). The server handles
// SIGTERM/SIGINT itself and prints the sign-in hint.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...p) => p.map((x) => path.join(root, x));

const targets = [
  {
    name: 'the web app',
    output: at('web/dist/index.html'),
    sources: at('web/src', 'web/index.html', 'web/public', 'web/vite.config.ts', 'contract/src'),
    command: [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    cwd: path.join(root, 'web'),
  },
  {
    name: 'the server',
    output: at('server/dist/main.mjs', 'server/dist/self-update-main.mjs'),
    sources: at('server/src', 'contract/src', 'server/package.json', 'scripts/build-server.mjs'),
    command: [path.join(root, 'scripts', 'build-server.mjs')],
    cwd: root,
  },
];

/**
 * Newest modification time under `p` (files only), 0 when it does not exist. The files of a tree
 * are listed at once and their times read in parallel (a walk with one stat after the other took
 * ~120 ms of the start on a busy machine).
 */
async function newest(p) {
  let stat;
  try {
    stat = await fs.promises.stat(p);
  } catch (err) {
    if (err.code === 'ENOENT') return 0;
    throw err;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  const entries = await fs.promises.readdir(p, { recursive: true, withFileTypes: true });
  const times = await Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => (await fs.promises.stat(path.join(e.parentPath, e.name))).mtimeMs),
  );
  return times.reduce((max, t) => Math.max(max, t), 0);
}

const newestOf = async (paths) => Promise.all(paths.map(newest));

/** Whether a target must be built, and when its output was (0: never, a first build). */
async function staleness({ output, sources }) {
  const [outputs, inputs] = await Promise.all([newestOf(output), newestOf(sources)]);
  const built = Math.min(...outputs);
  return { stale: !(built > 0 && built >= Math.max(...inputs)), built };
}

function build({ name, command, cwd }, built) {
  console.log(built ? `[berth] sources changed: building ${name}` : `[berth] building ${name} (first start)`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, command, { cwd, stdio: 'inherit', shell: false });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`building ${name} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

try {
  const checks = await Promise.all(targets.map(staleness));
  // One after the other: this machine may have few cores, and both builds are short.
  for (const [i, target] of targets.entries()) if (checks[i].stale) await build(target, checks[i].built);
} catch (err) {
  console.error(`[berth] ${err.message}`);
  process.exit(1);
}

await import(pathToFileURL(path.join(root, 'server', 'dist', 'main.mjs')).href);
