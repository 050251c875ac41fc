import type net from 'node:net';

/**
 * Byte streams multiplexed over one message channel (the agent's WebSocket). Berth opens a
 * channel per connection made to an agent environment's local socket; the agent connects each
 * one to its own engine socket. The WebSocket already frames, orders and checks messages, so a
 * frame is one binary message: a type byte, a 32-bit channel id and the payload.
 *
 * Back-pressure is a credit window per channel and direction: a side sends at most WINDOW_BYTES
 * that the other side has not yet handed to its socket; past that it stops reading its socket
 * until WINDOW frames give credit back. A reader that does not read (a log viewer that stalls,
 * a slow pull consumer) so holds up only its own channel, and at most WINDOW_BYTES of it sit in
 * memory on either side. Half-close (END) is kept apart from RESET, so `docker exec` with stdin
 * and attach (which close their sending side first) work as over a plain socket.
 */
export const FRAME = { open: 1, data: 2, end: 3, reset: 4, window: 5 } as const;

/** Credit per channel and direction. */
export const WINDOW_BYTES = 1024 * 1024;
/** Largest payload of one DATA frame (well under the server's 1 MiB WebSocket message cap). */
const CHUNK_BYTES = 64 * 1024;
const HEADER_BYTES = 5;

interface Channel {
  socket: net.Socket;
  /** Bytes sent and not yet acknowledged by the other side. */
  inflight: number;
}

export function frame(type: number, id: number, payload?: Buffer): Buffer {
  const buf = Buffer.allocUnsafe(HEADER_BYTES + (payload?.length ?? 0));
  buf.writeUInt8(type, 0);
  buf.writeUInt32BE(id, 1);
  payload?.copy(buf, HEADER_BYTES);
  return buf;
}

const credit = (n: number) => {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(n, 0);
  return b;
};

export class Mux {
  private readonly channels = new Map<number, Channel>();
  private next = 1;
  private closed = false;

  /**
   * `send` puts one frame on the wire. `accept` (the agent's side) makes the socket a channel
   * opened by the other side is carried to; without it, OPEN frames are refused.
   */
  constructor(
    private readonly send: (frame: Buffer) => void,
    private readonly accept?: (id: number) => net.Socket,
  ) {}

  /** How many channels are open (tests and diagnostics). */
  get size(): number {
    return this.channels.size;
  }

  /** Carries a local connection over a new channel (Berth's side). */
  open(socket: net.Socket): void {
    if (this.closed) return void socket.destroy();
    const id = this.next;
    this.next = this.next >= 0xffffffff ? 1 : this.next + 1;
    this.send(frame(FRAME.open, id));
    this.attach(id, socket);
  }

  /** One frame from the wire. Unknown channels and types are ignored (a channel may just have closed). */
  handle(buf: Buffer): void {
    if (buf.length < HEADER_BYTES || this.closed) return;
    const type = buf.readUInt8(0);
    const id = buf.readUInt32BE(1);
    if (type === FRAME.open) {
      if (!this.accept || this.channels.has(id)) return this.send(frame(FRAME.reset, id));
      return this.attach(id, this.accept(id));
    }
    const ch = this.channels.get(id);
    if (!ch) return;
    if (type === FRAME.data) {
      const payload = buf.subarray(HEADER_BYTES);
      // Credit goes back once the bytes left for the socket: a socket that does not drain holds it.
      ch.socket.write(payload, (err) => {
        if (!err && this.channels.get(id) === ch) this.send(frame(FRAME.window, id, credit(payload.length)));
      });
    } else if (type === FRAME.end) {
      ch.socket.end();
    } else if (type === FRAME.reset) {
      this.channels.delete(id);
      ch.socket.destroy();
    } else if (type === FRAME.window && buf.length >= HEADER_BYTES + 4) {
      ch.inflight -= buf.readUInt32BE(HEADER_BYTES);
      if (ch.inflight < WINDOW_BYTES && ch.socket.isPaused()) ch.socket.resume();
    }
  }

  /** Ends every channel (the WebSocket closed): their local sockets are destroyed. */
  close(): void {
    this.closed = true;
    const all = [...this.channels.values()];
    this.channels.clear();
    for (const ch of all) ch.socket.destroy();
  }

  private attach(id: number, socket: net.Socket): void {
    const ch: Channel = { socket, inflight: 0 };
    this.channels.set(id, ch);
    socket.on('data', (data: Buffer) => {
      for (let at = 0; at < data.length; at += CHUNK_BYTES)
        this.send(frame(FRAME.data, id, data.subarray(at, at + CHUNK_BYTES)));
      ch.inflight += data.length;
      if (ch.inflight >= WINDOW_BYTES) socket.pause();
    });
    socket.on('end', () => {
      if (this.channels.get(id) === ch) this.send(frame(FRAME.end, id));
    });
    // Errors end in 'close', which resets the channel.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.channels.get(id) !== ch) return;
      this.channels.delete(id);
      if (!this.closed) this.send(frame(FRAME.reset, id));
    });
  }
}
