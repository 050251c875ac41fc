// Bytes on the wire of one SSE stream, read as a browser asks for it (brotli or gzip accepted).
import http from 'node:http';
import zlib from 'node:zlib';

/** Counts the bytes received (as sent, maybe compressed) and decoded, each with its arrival time. */
export class WireMeter {
  readonly raw: Array<[number, number]> = [];
  readonly decoded: Array<[number, number]> = [];
  encoding = 'identity';
  private req: http.ClientRequest | null = null;

  static open(url: string, cookie: string): Promise<WireMeter> {
    const m = new WireMeter();
    return new Promise((resolve, reject) => {
      m.req = http.get(url, { headers: { cookie, 'accept-encoding': 'br, gzip' } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
        m.encoding = String(res.headers['content-encoding'] ?? 'identity');
        res.on('data', (b: Buffer) => m.raw.push([Date.now(), b.length]));
        const decoder =
          m.encoding === 'br' ? zlib.createBrotliDecompress() : m.encoding === 'gzip' ? zlib.createGunzip() : null;
        (decoder ? res.pipe(decoder) : res).on('data', (b: Buffer) => m.decoded.push([Date.now(), b.length]));
        decoder?.on('error', () => undefined);
        resolve(m);
      });
      m.req.on('error', reject);
    });
  }

  /** Bytes per second received in [t0, t1): as sent and decoded. */
  rate(t0: number, t1: number): { raw: number; decoded: number } {
    const sum = (xs: Array<[number, number]>) => xs.filter(([t]) => t >= t0 && t < t1).reduce((a, [, n]) => a + n, 0);
    const s = (t1 - t0) / 1000;
    return { raw: sum(this.raw) / s, decoded: sum(this.decoded) / s };
  }

  close(): void {
    this.req?.destroy();
  }
}
