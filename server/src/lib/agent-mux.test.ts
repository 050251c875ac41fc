import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FRAME, Mux, WINDOW_BYTES } from './agent-mux';

/**
 * Two muxes joined like Berth and an agent over their WebSocket (frames handed across on the next
 * turn), with real unix sockets at both ends: Berth's local socket and the "engine" the agent
 * connects each channel to.
 */
function tunnel(engine: (socket: net.Socket) => void) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mux-'));
  const engineServer = net.createServer({ allowHalfOpen: true }, engine).listen(path.join(dir, 'engine.sock'));
  const agentSent = { data: 0 };
  const ends: { berth?: Mux } = {};
  const agent = new Mux(
    (f) => {
      if (f[0] === FRAME.data) agentSent.data += f.length - 5;
      setImmediate(() => ends.berth!.handle(f));
    },
    () => net.connect({ path: path.join(dir, 'engine.sock'), allowHalfOpen: true }),
  );
  const berth = (ends.berth = new Mux((f) => setImmediate(() => agent.handle(f))));
  const local = net.createServer({ allowHalfOpen: true }, (s) => berth.open(s)).listen(path.join(dir, 'berth.sock'));
  const connect = () => net.connect({ path: path.join(dir, 'berth.sock'), allowHalfOpen: true });
  const close = () => {
    berth.close();
    agent.close();
    engineServer.close();
    local.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { connect, close, agentSent, berth, agent };
}

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('agent mux', () => {
  let t: ReturnType<typeof tunnel> | null = null;
  afterEach(() => t?.close());

  it('carries bytes both ways intact, and a half-close (stdin closed, output still coming)', async () => {
    // An echo engine that answers "bye" after the client closed its side, then ends.
    t = tunnel((s) => {
      s.pipe(s, { end: false });
      s.on('end', () => s.end('bye'));
    });
    const payload = crypto.randomBytes(5 * 1024 * 1024);
    const client = t.connect();
    const got: Buffer[] = [];
    client.on('data', (c: Buffer) => got.push(c));
    const ended = new Promise<void>((r) => client.on('end', r));
    client.end(payload);
    await ended;
    const all = Buffer.concat(got);
    expect(all.length).toBe(payload.length + 3);
    expect(sha(all.subarray(0, payload.length))).toBe(sha(payload));
    expect(all.subarray(payload.length).toString()).toBe('bye');
    await sleep(20);
    expect(t.berth.size + t.agent.size).toBe(0);
  });

  it('stops reading the engine while the reader does not read, then delivers everything', async () => {
    const total = 24 * 1024 * 1024;
    const payload = crypto.randomBytes(total);
    t = tunnel((s) => s.end(payload));
    const client = t.connect();
    client.pause();
    await sleep(600);
    // What left the agent is bounded by the window (plus what the sockets on Berth's side buffer), far from all of it.
    expect(t.agentSent.data).toBeGreaterThan(0);
    expect(t.agentSent.data).toBeLessThan(WINDOW_BYTES * 4);
    const got: Buffer[] = [];
    client.on('data', (c: Buffer) => got.push(c));
    const ended = new Promise<void>((r) => client.on('end', r));
    client.resume();
    await ended;
    expect(sha(Buffer.concat(got))).toBe(sha(payload));
  });

  it('ends every channel when the tunnel closes', async () => {
    t = tunnel(() => undefined);
    const client = t.connect();
    const ended = new Promise<void>((r) => client.on('end', () => r()));
    await sleep(50);
    expect(t.berth.size).toBe(1);
    t.berth.close();
    await ended;
  });
});
