import type { FastifyInstance } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import { TERMINAL_PROTOCOL } from '@berth/contract';
import type { LiveStreamTracker } from '../lib/live-streams';

/** Largest frame a client may send (terminal input comes in keystrokes and pastes). */
const MAX_FRAME_BYTES = 1024 * 1024;

/**
 * WebSocket upgrades go through Fastify's routing, so the global hooks (allowed hosts, auth,
 * same origin, CSRF) and the route's checks run before any socket exists; a refusal is a plain
 * JSON HTTP answer. The server speaks one subprotocol, and selects it when offered; the
 * `csrf.<token>` one a browser offers beside it only carries its CSRF token. Sockets and SSE
 * answers register in `streams` (see lib/route.ts socketRoute and lib/sse.ts openSse).
 */
export async function registerWebSockets(app: FastifyInstance, streams: LiveStreamTracker): Promise<void> {
  app.decorate('liveStreams', streams);
  await app.register(fastifyWebsocket, {
    options: {
      maxPayload: MAX_FRAME_BYTES,
      handleProtocols: (protocols) => (protocols.has(TERMINAL_PROTOCOL) ? TERMINAL_PROTOCOL : false),
    },
  });
}
