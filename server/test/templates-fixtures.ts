import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type CatalogueRoute = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface CatalogueServer {
  /** http://127.0.0.1:<port> */
  base: string;
  port: number;
  routes: Map<string, CatalogueRoute>;
  /** How many requests each path got. */
  hits: Map<string, number>;
  /** Connections accepted so far (any path). */
  connections: () => number;
  close: () => Promise<void>;
}

/** A catalogue host on 127.0.0.1 (random port) for template tests; routes are set per test. */
export async function startCatalogueServer(): Promise<CatalogueServer> {
  const routes = new Map<string, CatalogueRoute>();
  const hits = new Map<string, number>();
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const handler = routes.get(path);
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not here: internal-secret-404');
  });
  server.on('connection', (s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    routes,
    hits,
    connections: () => connections,
    close: async () => {
      // Routes that never answer keep their sockets open; end them so close() returns.
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const json =
  (body: unknown, type = 'application/json'): CatalogueRoute =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': type }).end(typeof body === 'string' ? body : JSON.stringify(body));
  };
