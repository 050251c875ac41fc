#!/usr/bin/env node
// `npm start`: builds the web app when its sources are newer than web/dist (or it is missing),
// then runs the server in the foreground. The server prints the sign-in hint itself.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'web', 'dist', 'index.html');
const sources = ['web/src', 'web/index.html', 'web/public', 'web/vite.config.ts', 'contract/src'].map((p) => path.join(root, p));

/** Newest modification time under `p` (files only), 0 when it does not exist. */
function newest(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch (err) {
    if (err.code === 'ENOENT') return 0;
    throw err;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const entry of fs.readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

function run(cmd, args, cwd = root) {
  return spawn(cmd, args, { cwd, stdio: 'inherit', shell: false });
}

function buildIfStale() {
  const built = newest(dist);
  const changed = Math.max(...sources.map(newest));
  if (built > 0 && built >= changed) return Promise.resolve();
  console.log(built ? '[berth] web sources changed: building the web app' : '[berth] building the web app (first start)');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  return new Promise((resolve, reject) => {
    const child = run(process.execPath, [vite, 'build', '--logLevel', 'warn'], path.join(root, 'web'));
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`web build failed (${signal ?? `exit ${code}`})`))));
  });
}

try {
  await buildIfStale();
} catch (err) {
  console.error(`[berth] ${err.message}`);
  process.exit(1);
}

const server = run(process.execPath, ['--import', 'tsx', path.join('server', 'src', 'main.ts')]);
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => server.kill(signal));
}
server.on('error', (err) => {
  console.error(`[berth] could not start the server: ${err.message}`);
  process.exit(1);
});
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
