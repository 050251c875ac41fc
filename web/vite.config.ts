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
      const files = (await fs.readdir(outDir, { recursive: true })).filter((f) => /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/.test(f));
      await Promise.all(
        files.map(async (f) => {
          const file = path.join(outDir, f);
          const body = await fs.readFile(file);
          if (body.length < 1024) return; // not worth a second request path
          const [gz, br] = await Promise.all([
            gzip(body, { level: 9 }),
            brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
          ]);
          await Promise.all([fs.writeFile(`${file}.gz`, gz), fs.writeFile(`${file}.br`, br)]);
        }),
      );
    },
  };
}

// The server serves web/dist; in `vite dev` the API stays on the real server.
export default defineConfig({
  plugins: [react(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 900 },
  server: { proxy: { '/api': { target: 'http://127.0.0.1:8000', changeOrigin: false } } },
});
