import type { FastifyInstance } from 'fastify';
import { ShuttingDownError } from '../errors';

/**
 * A shutdown that never waits on a keep-alive connection (every browser holds some). Node's
 * server.close() only closes the connections idle at that moment; one whose request was still in
 * flight stays open after its answer, and close() would wait for the client to hang up (the forced
 * exit, long after `docker stop`'s 10 s). So once closing begins, every answer carries
 * `Connection: close`, calls that still arrive are answered 503 `shutting_down`, and when the last
 * request in flight has answered, every remaining connection is closed.
 */
export function registerGracefulClose(app: FastifyInstance): void {
  let closing = false;
  let inFlight = 0;
  const closeAllWhenDrained = () => {
    if (closing && inFlight === 0) app.server.closeAllConnections();
  };
  app.server.on('request', (_req, res) => {
    inFlight++;
    res.once('close', () => {
      inFlight--;
      closeAllWhenDrained();
    });
  });
  app.addHook('onRequest', async () => {
    if (closing) throw new ShuttingDownError();
  });
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  // Registered before the routes' own preClose hooks (running actions stopped, streams ended):
  // their answers already go out with `Connection: close`.
  app.addHook('preClose', async () => {
    closing = true;
    closeAllWhenDrained();
  });
}
