import type { WebSocket } from 'ws';
import type { FastifyBaseLogger } from 'fastify';
import { Mux } from '../../lib/agent-mux';
import type { AgentStatsMessage } from '../../docker/agent-stats-source';

/** Berth pings each agent this often. */
export const PING_MS = 4000;
/**
 * An agent Berth has heard nothing from (no pong, no message) for this long is cut off. One missed
 * ping was too little: an agent not scheduled for 4-8 s on a loaded host (load 60-90 in the bench)
 * was cut and had to reconnect; the agent itself gives Berth 15 s.
 */
export const SILENCE_MS = 12_000;

/**
 * One connected agent after its handshake: the engine channels multiplexed over its WebSocket,
 * the stats it pushes, and a ping that notices a silent network drop (a NAT that forgot the
 * connection) within SILENCE_MS.
 */
export class AgentLink {
  readonly mux: Mux;
  private heard = Date.now();
  private readonly timer: NodeJS.Timeout;
  private ended = false;

  constructor(
    private readonly ws: WebSocket,
    onStats: (msg: AgentStatsMessage) => void,
    onClose: (reason: string) => void,
    log: FastifyBaseLogger,
    timing: { pingMs: number; silenceMs: number } = { pingMs: PING_MS, silenceMs: SILENCE_MS },
  ) {
    this.mux = new Mux((f) => {
      if (ws.readyState === ws.OPEN) ws.send(f);
    });
    ws.on('message', (data: Buffer, binary: boolean) => {
      this.heard = Date.now();
      if (binary) return this.mux.handle(data);
      try {
        const msg = JSON.parse(data.toString('utf8')) as { type?: string };
        if (msg.type === 'stats') onStats(msg as AgentStatsMessage);
      } catch (err) {
        log.debug({ err }, 'unreadable agent message');
      }
    });
    ws.on('pong', () => (this.heard = Date.now()));
    this.timer = setInterval(() => {
      if (Date.now() - this.heard > timing.silenceMs) return void ws.terminate();
      ws.ping();
    }, timing.pingMs);
    this.timer.unref();
    ws.on('close', (code: number, why: Buffer) => {
      clearInterval(this.timer);
      this.mux.close();
      if (this.ended) return;
      this.ended = true;
      const text = why.toString('utf8');
      onClose(text || (code === 1006 ? 'the connection was lost' : `the connection closed (code ${code})`));
    });
  }

  /** Closes the agent's connection now (revoked, replaced, Berth stopping). */
  close(code: number, reason: string): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    this.mux.close();
    this.ws.close(code, reason);
    // A peer that does not answer the close is dropped.
    setTimeout(() => this.ws.terminate(), 1000).unref();
  }
}
