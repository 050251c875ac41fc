import WebSocket from 'ws';
import { until } from './apps-fixtures';

/** A terminal client, as a script or the web page would be one. */
export class Term {
  private chunks: Buffer[] = [];
  /** Bytes received so far (cheap to poll, unlike `output`). */
  received = 0;
  closed: { code: number; reason: string } | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      this.chunks.push(data);
      this.received += data.length;
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  /** Opens a socket; a refused upgrade rejects with the HTTP status and JSON body. */
  static open(url: string, headers: Record<string, string>, protocols: string[] = []): Promise<Term> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, protocols, { headers });
      const term = new Term(ws);
      ws.once('open', () => resolve(term));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => reject(new Refused(res.statusCode ?? 0, body)));
      });
      ws.once('error', reject);
    });
  }

  get output(): Buffer {
    return Buffer.concat(this.chunks);
  }

  type(text: string): void {
    this.ws.send(Buffer.from(text), { binary: true });
  }

  async waitFor(pattern: RegExp | string, timeoutMs = 20_000): Promise<void> {
    const seen = () =>
      typeof pattern === 'string' ? this.output.includes(pattern) : pattern.test(this.output.toString('latin1'));
    await until(seen, `output ${String(pattern)}`, timeoutMs).catch((err: Error) => {
      throw new Error(
        `${err.message}; got ${JSON.stringify(this.output.toString('latin1').slice(-300))}, closed ${JSON.stringify(this.closed)}`,
      );
    });
  }

  async waitClosed(): Promise<{ code: number; reason: string }> {
    await until(() => this.closed !== null, 'the socket to close');
    return this.closed!;
  }
}

export class Refused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`refused with ${status}: ${body}`);
  }
}

export async function refusal(promise: Promise<Term>): Promise<{ status: number; code: string }> {
  const err = await promise.then(
    (term) => {
      term.ws.close();
      throw new Error('the upgrade was accepted');
    },
    (e: unknown) => e,
  );
  if (!(err instanceof Refused)) throw err;
  return { status: err.status, code: (JSON.parse(err.body) as { code: string }).code };
}
