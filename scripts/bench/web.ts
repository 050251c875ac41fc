// The JavaScript a browser must fetch before the first page runs: the entry script and the
// modules index.html preloads, gzipped (the level the server's precompressed .gz files use).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export interface InitialJs {
  files: number;
  raw: number;
  gzip: number;
  /** The same files as the server sends them to a browser that accepts brotli. */
  brotli: number;
}

export function initialJs(dist: string): InitialJs {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map((m) => m[1]!);
  const out: InitialJs = { files: 0, raw: 0, gzip: 0, brotli: 0 };
  for (const url of new Set(urls)) {
    const body = fs.readFileSync(path.join(dist, url));
    out.files++;
    out.raw += body.length;
    out.gzip += zlib.gzipSync(body, { level: 9 }).length;
    out.brotli += zlib.brotliCompressSync(body).length;
  }
  return out;
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  console.log(initialJs(process.argv[2] ?? path.resolve(import.meta.dirname, '../../web/dist')));
}
