import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { AgentLink } from './agent-link';

const log = { debug: () => undefined } as unknown as FastifyBaseLogger;
const timing = { pingMs: 50, silenceMs: 600 };
let server: WebSocketServer | undefined;
afterEach(() => server?.close());

/** A real WebSocket pair on loopback: Berth's side wrapped in an AgentLink, the agent's side that never pongs. */
async function pair(): Promise<{ agent: WebSocket; closed: Promise<string> }> {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server!.once('listening', resolve));
  const closed = new Promise<string>((resolve) =>
    server!.once('connection', (ws) => new AgentLink(ws, () => undefined, resolve, log, timing)),
  );
  const agent = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, { autoPong: false });
  await new Promise((resolve) => agent.once('open', resolve));
  return { agent, closed };
}

describe('AgentLink liveness', () => {
  it('cuts off an agent it has heard nothing from (no pong, no message) for the silence limit', async () => {
    const { agent, closed } = await pair();
    expect(await closed).toBe('the connection was lost');
    agent.terminate();
  });

  it('keeps an agent that sends messages though its pongs are late: any message proves it is there', async () => {
    const { agent, closed } = await pair();
    let cut = false;
    void closed.then(() => (cut = true));
    const beat = setInterval(() => agent.send(JSON.stringify({ type: 'hello' })), 40);
    // Three silence limits with pings every 50 ms and not one pong.
    await new Promise((resolve) => setTimeout(resolve, 3 * timing.silenceMs));
    clearInterval(beat);
    expect(cut).toBe(false);
    agent.terminate();
    await closed;
  });
});
