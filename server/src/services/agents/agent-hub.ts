import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { WebSocket } from 'ws';
import type { EnvironmentAgent } from '@berth/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AgentsRepo } from '../../db/agents-repo';
import type { AgentStatsMessage } from '../../docker/agent-stats-source';
import {
  AGENT_CLOSE,
  makeEnrolmentToken,
  nonce,
  parseEnrolmentToken,
  serverProof,
  tokenHash,
  verifyAgentSignature,
  type AgentChallenge,
  type AgentHello,
  type AgentReady,
} from '../../lib/agent-auth';
import { AgentLink } from './agent-link';

/** An agent that has not finished its handshake by then is dropped. */
const HANDSHAKE_MS = 10_000;

/** Whether an agent environment's agent is connected, and since when or why not. */
export interface AgentState {
  connected: boolean;
  /** When it connected or was lost (ISO), null before either. */
  since: string | null;
  /** Why it is not connected (a sentence), null while it is. */
  reason: string | null;
}

interface Endpoint {
  server: net.Server;
  socketPath: string;
  listeners: Set<(s: AgentState) => void>;
  statsListeners: Set<(m: AgentStatsMessage) => void>;
}

/**
 * Every agent environment's side of the tunnel. Each one has a unix socket of its own in the
 * data folder (0600): a connection made to it (by dockerode, or by the compose and docker CLIs
 * through DOCKER_HOST) becomes a channel to the agent, which connects it to its engine's socket.
 * So everything Berth does with an engine (logs, exec, attach, events, pulls, builds, compose)
 * works over an agent unchanged. While the agent is away, connections are refused at once.
 * Berth never dials an agent: agents dial Berth (accept) and stay connected.
 */
export class AgentHub {
  private readonly links = new Map<string, AgentLink>();
  private readonly endpoints = new Map<string, Endpoint>();
  private readonly states = new Map<string, AgentState>();
  private closed = false;

  constructor(
    private readonly repo: AgentsRepo,
    private readonly server: { privateKey: crypto.KeyObject; publicKey: string },
    private readonly socketDir: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A new one-time enrolment token for the environment (any enrolled agent is revoked and cut off). */
  issueToken(id: string): string {
    const { token, hash } = makeEnrolmentToken(this.server.publicKey);
    this.repo.issueToken(id, hash, new Date().toISOString());
    this.cut(id, 'a new enrolment token was issued; the agent must enrol again');
    return token;
  }

  /** Forgets the agent's key and closes its connection now. */
  revoke(id: string): void {
    this.repo.revoke(id, new Date().toISOString());
    this.cut(id, "the agent's identity was revoked");
  }

  remove(id: string): void {
    this.repo.remove(id);
    this.cut(id, 'the environment was removed');
  }

  state(id: string): AgentState {
    if (this.states.has(id)) return this.states.get(id)!;
    const row = this.repo.get(id);
    const reason = !row?.public_key
      ? row?.token_hash
        ? 'No agent has enrolled yet: run the agent with its enrolment token.'
        : 'The agent was revoked: issue a new enrolment token to connect one.'
      : 'The agent has not connected since Berth started.';
    return { connected: false, since: null, reason };
  }

  /** What an environment read shows of its agent. */
  view(id: string): EnvironmentAgent {
    return { enrolled: Boolean(this.repo.get(id)?.public_key), ...this.state(id) };
  }

  /** The environment's local socket (made on first use); `close` stops serving it. */
  endpoint(id: string): { socketPath: string; close(): void } {
    let ep = this.endpoints.get(id);
    if (!ep) {
      const socketPath = this.socketPathOf(id);
      fs.mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
      fs.rmSync(socketPath, { force: true });
      const server = net.createServer({ allowHalfOpen: true }, (socket) => {
        const link = this.links.get(id);
        if (link) link.mux.open(socket);
        else socket.destroy();
      });
      server.listen(socketPath, () => fs.chmodSync(socketPath, 0o600));
      server.on('error', (err) => this.log.error({ err, environment: id }, 'agent socket failed'));
      ep = { server, socketPath, listeners: new Set(), statsListeners: new Set() };
      this.endpoints.set(id, ep);
    }
    const e = ep;
    return {
      socketPath: e.socketPath,
      close: () => {
        if (this.endpoints.get(id) !== e) return;
        this.endpoints.delete(id);
        e.server.close();
        fs.rmSync(e.socketPath, { force: true });
      },
    };
  }

  /** Told when the agent connects or is lost. */
  onChange(id: string, fn: (s: AgentState) => void): () => void {
    const ep = this.endpoints.get(id);
    ep?.listeners.add(fn);
    return () => ep?.listeners.delete(fn);
  }

  /** The agent's stats messages. */
  onStats(id: string, fn: (m: AgentStatsMessage) => void): () => void {
    const ep = this.endpoints.get(id);
    ep?.statsListeners.add(fn);
    return () => ep?.statsListeners.delete(fn);
  }

  /** A WebSocket an agent opened: the handshake, then the link. */
  accept(ws: WebSocket, from: string): void {
    if (this.closed) return void ws.close(1001, 'Berth is stopping');
    const serverNonce = nonce();
    let hello: AgentHello | null = null;
    const refuse = (code: number, reason: string) => {
      this.log.warn({ from, reason }, 'agent refused');
      ws.close(code, reason);
    };
    const timer = setTimeout(() => refuse(AGENT_CLOSE.protocol, 'no handshake in time'), HANDSHAKE_MS);
    const onMessage = (data: Buffer, binary: boolean) => {
      let msg: { type?: string; [k: string]: unknown };
      try {
        if (binary) throw new Error('binary before the handshake');
        msg = JSON.parse(data.toString('utf8')) as typeof msg;
      } catch {
        return refuse(AGENT_CLOSE.protocol, 'the handshake was not understood');
      }
      if (!hello && msg.type === 'hello' && typeof msg.nonce === 'string' && typeof msg.publicKey === 'string') {
        hello = msg as unknown as AgentHello;
        const challenge: AgentChallenge = {
          type: 'challenge',
          nonce: serverNonce,
          serverKey: this.server.publicKey,
          proof: serverProof(this.server.privateKey, hello.nonce, serverNonce),
        };
        return ws.send(JSON.stringify(challenge));
      }
      if (!hello || msg.type !== 'auth' || typeof msg.signature !== 'string')
        return refuse(AGENT_CLOSE.protocol, 'the handshake was not understood');
      clearTimeout(timer);
      ws.off('message', onMessage);
      if (!verifyAgentSignature(hello.publicKey, serverNonce, hello.nonce, msg.signature))
        return refuse(AGENT_CLOSE.refused, "the agent's signature does not match its key");
      const id = this.identify(hello);
      if (typeof id !== 'string') return refuse(AGENT_CLOSE.refused, id.refused);
      this.connected(id, ws, from);
    };
    ws.on('message', onMessage);
    ws.on('close', () => clearTimeout(timer));
  }

  /** The environment a handshake's key (or token, spent here) belongs to. */
  private identify(hello: AgentHello): string | { refused: string } {
    // A key already enrolled is that agent (its signature proved it), token or not: an agent whose
    // enrolment answer was lost comes back with the token it already spent.
    const known = this.repo.byPublicKey(hello.publicKey);
    if (known) return known.environment;
    if (hello.token !== undefined) {
      const parsed = parseEnrolmentToken(hello.token);
      if (!parsed) return { refused: 'the enrolment token is not one Berth made' };
      let id: string | null;
      try {
        id = this.repo.enrol(tokenHash(parsed.secret), hello.publicKey, new Date().toISOString());
      } catch {
        // The key is enrolled for another environment already (its UNIQUE column).
        return { refused: 'this agent key is enrolled for another environment' };
      }
      if (!id) return { refused: 'the enrolment token is unknown or was used already' };
      this.log.info({ environment: id }, 'agent enrolled');
      return id;
    }
    return { refused: 'this agent is not enrolled, or its identity was revoked' };
  }

  private connected(id: string, ws: WebSocket, from: string): void {
    this.links.get(id)?.close(AGENT_CLOSE.replaced, 'another connection of this agent took over');
    const link = new AgentLink(
      ws,
      (m) => this.endpoints.get(id)?.statsListeners.forEach((fn) => fn(m)),
      (reason) => {
        if (this.links.get(id) !== link) return;
        this.links.delete(id);
        this.log.warn({ environment: id, reason }, 'agent disconnected');
        this.setState(id, {
          connected: false,
          since: new Date().toISOString(),
          reason: `The agent disconnected: ${reason}.`,
        });
      },
      this.log,
    );
    this.links.set(id, link);
    const ready: AgentReady = { type: 'ready', environment: id };
    ws.send(JSON.stringify(ready));
    this.log.info({ environment: id, from }, 'agent connected');
    this.setState(id, { connected: true, since: new Date().toISOString(), reason: null });
  }

  private cut(id: string, reason: string): void {
    const link = this.links.get(id);
    if (!link) return;
    this.links.delete(id);
    link.close(AGENT_CLOSE.refused, reason);
    this.setState(id, {
      connected: false,
      since: new Date().toISOString(),
      reason: `The agent was cut off: ${reason}.`,
    });
  }

  private setState(id: string, s: AgentState): void {
    this.states.set(id, s);
    for (const fn of this.endpoints.get(id)?.listeners ?? []) fn(s);
  }

  /** A short path: unix socket paths stop at 107 bytes. */
  private socketPathOf(id: string): string {
    const name = crypto.createHash('sha256').update(id).digest('hex').slice(0, 16);
    return path.join(this.socketDir, `${name}.sock`);
  }

  close(): void {
    this.closed = true;
    for (const [id, link] of this.links) {
      this.links.delete(id);
      link.close(1001, 'Berth is stopping');
    }
    for (const ep of this.endpoints.values()) ep.server.close();
    this.endpoints.clear();
  }
}
