#!/usr/bin/env node
// Bundles the server into server/dist (one ESM file per entry: the server, and the self-update
// updater). The contract is bundled in; the server's dependencies (and zod, shared with
// fastify-type-provider-zod) stay in node_modules. Used by `npm start` and the Dockerfile, so
// both run the same bundle.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Bundled in, not loaded from node_modules: yaml's ES module build (its CommonJS build is 72
// modules, each kept with its own unminified source: ~1 MB more resident at start, measured).
const BUNDLED = new Set(['yaml']);
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'server', 'package.json'), 'utf8'));

await build({
  absWorkingDir: root,
  entryPoints: [
    'server/src/main.ts',
    'server/src/services/self-update/self-update-main.ts',
    'server/src/agent/agent-main.ts',
  ],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outdir: 'server/dist',
  entryNames: '[name]',
  outExtension: { '.js': '.mjs' },
  external: [...Object.keys(pkg.dependencies).filter((d) => !BUNDLED.has(d)), 'zod'],
  alias: { yaml: path.join(root, 'node_modules', 'yaml', 'browser', 'index.js') },
  logLevel: 'warning',
  // Plain ASCII (other characters escaped): V8 then keeps the bundle's source as one byte per
  // character, not two (~0.6 MB less held for lazy compilation).
  charset: 'ascii',
  // Without comments (some held non-ASCII characters, which charset leaves as they are: the
  // whole source was then kept two bytes per character) and whitespace: 0.73 MB of source, was
  // 2.8 MB of heap. Names are kept, so stack traces still say which function.
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
});
