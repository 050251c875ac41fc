import net from 'node:net';
import WebSocket from 'ws';
import type { FastifyBaseLogger } from 'fastify';
import type { AgentConfig } from '../agent-config';
import { Mux } from '../lib/agent-mux';
import {
  AGENT_CLOSE,
  AGENT_CONNECT_PATH,
  agentSignature,
  fingerprint,
  nonce,
  parseEnrolmentToken,
  verifyServerProof,
  type AgentChallenge,
  type AgentHello,
  type AgentReady,
} from '../lib/agent-auth';
import { AgentState } from './agent-state';
import { StatsPusher } from './agent-stats';

/** Reconnect waits: doubling from 1 s to 30 s, with up to a quarter more at random so agents do not return in step. */
const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000, 30000];

/** An open connection without a ping from Berth for this long is given up. */
const SILENCE_MS = 15_000;

/**
 * `berth agent`: dials Berth (it never listens), proves who it is, and then carries Berth's
 * engine connections to the one engine socket it was given, plus its host's cgroup stats once a
 * second. Reconnects with back-off; stops for good when Berth refuses it (token used, revoked).
 */
export class BerthAgent {
  private readonly state: AgentState;
  private ws: WebSocket | null = null;
  private attempt = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private done: (code: number) => void = () => undefined;

  constructor(
    private readonly config: AgentConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    this.state = new AgentState(config.stateDir);
  }

  /** Runs until stopped (0) or refused for good (2). */
  run(): Promise<number> {
    return new Promise((resolve) => {
      this.done = resolve;
      this.connect();
    });
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.ws?.close(1000, 'the agent is stopping');
    this.done(0);
  }

  /** The fingerprint of Berth's key this agent trusts: the pinned one, or the token's before enrolment. */
  private pinned(): { fingerprint: string; token?: string } | null {
    const enrolled = this.state.enrolled();
    if (enrolled) return { fingerprint: enrolled.fingerprint };
    const token = this.config.token && parseEnrolmentToken(this.config.token);
    return token ? { fingerprint: token.fingerprint, token: this.config.token!.trim() } : null;
  }

  private connect(): void {
    if (this.stopped) return;
    const pin = this.pinned();
    if (!pin) {
      this.log.error(
        'not enrolled and no valid BERTH_AGENT_TOKEN: add an agent environment in Berth and use its token',
      );
      return this.done(2);
    }
    const url = new URL(AGENT_CONNECT_PATH, this.config.berthUrl);
    const ws = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: 10_000, maxPayload: 4 * 1024 * 1024 });
    this.ws = ws;
    const agentNonce = nonce();
    let mux: Mux | null = null;
    let stats: StatsPusher | null = null;
    let closeReason = '';
    ws.on('open', () => {
      const hello: AgentHello = { type: 'hello', nonce: agentNonce, publicKey: this.state.publicKey };
      if (pin.token) hello.token = pin.token;
      ws.send(JSON.stringify(hello));
    });
    ws.on('message', (data: Buffer, binary: boolean) => {
      if (binary) return mux?.handle(data);
      const msg = JSON.parse(data.toString('utf8')) as AgentChallenge | AgentReady;
      if (msg.type === 'challenge') {
        if (
          fingerprint(msg.serverKey) !== pin.fingerprint ||
          !verifyServerProof(msg.serverKey, agentNonce, msg.nonce, msg.proof)
        ) {
          closeReason = 'this is not the Berth the agent was enrolled with (its key does not match the pinned one)';
          return ws.close(1000, 'server key mismatch');
        }
        ws.send(
          JSON.stringify({ type: 'auth', signature: agentSignature(this.state.privateKey, msg.nonce, agentNonce) }),
        );
      } else if (msg.type === 'ready') {
        if (pin.token)
          this.state.saveEnrolled({
            fingerprint: pin.fingerprint,
            environment: msg.environment,
            enrolled_at: new Date().toISOString(),
          });
        this.attempt = 0;
        this.log.info(
          { environment: msg.environment },
          pin.token ? 'enrolled and connected to Berth' : 'connected to Berth',
        );
        mux = new Mux(
          (f) => ws.readyState === ws.OPEN && ws.send(f),
          () => net.connect({ path: this.config.dockerSocket, allowHalfOpen: true }),
        );
        stats = new StatsPusher(this.config.dockerSocket, this.config.cgroupRoot, this.log, (m) => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
        });
        stats.start();
      }
    });
    // Berth pings every few seconds: silence means a dead path (a NAT that forgot the connection).
    let heard = Date.now();
    ws.on('ping', () => (heard = Date.now()));
    const silence = setInterval(() => {
      if (Date.now() - heard > SILENCE_MS) ws.terminate();
    }, SILENCE_MS / 3);
    ws.on('error', (err) => (closeReason ||= err.message));
    ws.on('close', (code: number, why: Buffer) => {
      clearInterval(silence);
      mux?.close();
      stats?.stop();
      if (this.stopped) return;
      const reason = closeReason || why.toString('utf8') || `code ${code}`;
      if (code === AGENT_CLOSE.refused) {
        this.log.error({ reason }, 'Berth refused this agent; not retrying');
        return this.done(2);
      }
      const wait = BACKOFF_MS[Math.min(this.attempt++, BACKOFF_MS.length - 1)]! * (1 + Math.random() / 4);
      this.log.warn({ reason, retryInMs: Math.round(wait) }, 'not connected to Berth; retrying');
      this.timer = setTimeout(() => this.connect(), wait);
    });
  }
}
