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
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'server', 'package.json'), 'utf8'));

await build({
  absWorkingDir: root,
  entryPoints: ['server/src/main.ts', 'server/src/services/self-update-main.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outdir: 'server/dist',
  entryNames: '[name]',
  outExtension: { '.js': '.mjs' },
  external: [...Object.keys(pkg.dependencies), 'zod'],
  logLevel: 'warning',
  // Plain ASCII (other characters escaped): V8 then keeps the bundle's source as one byte per
  // character, not two (~0.6 MB less held for lazy compilation).
  charset: 'ascii',
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
});
