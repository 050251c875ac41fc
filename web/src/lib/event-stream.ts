import { useEffect, useRef } from 'react';
import { ApiError, openEvents } from './api-client';

export interface EventStreamOptions<T> {
  /** SSE event name(s); Berth's streams use 'update' (and 'remove' / 'status', see StreamEvent). */
  event?: string | readonly string[];
  /**
   * Turns one message's data into an item; default JSON.parse, falling back to the raw text.
   * `event` says which event it came in, for streams that listen to several.
   */
  parse?: (data: string, event: string) => T;
  /** Receives the messages gathered since the last flush, in arrival order. */
  onBatch: (items: T[]) => void;
  /** Called when the stream is (re)opened, e.g. to reset state that a fresh stream replays. */
  onOpen?: () => void;
  /** Longest wait before a flush when no animation frame comes (background tabs). */
  flushMs?: number;
  /**
   * Flush on the next animation frame (default). False flushes every `flushMs` only: fewer
   * renders for streams that may deliver thousands of messages a second (logs) or many small
   * ones (the dashboard).
   */
  frameAligned?: boolean;
  /** An event after which the server closes the stream for good (e.g. 'end'): no reconnect follows it. */
  endEvent?: string;
  /** Called once the end event came (after the last batch). */
  onEnd?: () => void;
}

const defaultParse = (data: string): unknown => {
  try {
    return JSON.parse(data);
  } catch {
    // Log streams send plain text lines; those are items as they are.
    return data;
  }
};

/**
 * Opens a server-sent event stream through the api client (so a 401 refreshes the session like
 * any call) and hands its messages over in batches, at most once per animation frame or
 * `flushMs`, so a noisy stream cannot re-render the page for every line. Only events named in
 * `event` count. Reconnects with backoff when the stream ends or fails, until the session is
 * gone. Returns a close function.
 */
function openEventStream<T>(url: string, opts: EventStreamOptions<T>): () => void {
  const events = typeof opts.event === 'string' ? [opts.event] : (opts.event ?? ['update']);
  const parse = opts.parse ?? (defaultParse as (data: string) => T);
  const flushMs = opts.flushMs ?? 250;
  const abort = new AbortController();
  let buffer: T[] = [];
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let attempts = 0;
  let closed = false;
  let ended = false;

  const flush = () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    frame = 0;
    timer = undefined;
    if (buffer.length === 0 || closed) return;
    const items = buffer;
    buffer = [];
    opts.onBatch(items);
  };
  const schedule = () => {
    if (timer !== undefined) return;
    if (opts.frameAligned !== false) frame = requestAnimationFrame(flush);
    timer = setTimeout(flush, flushMs);
  };

  const readOnce = async () => {
    const batches = await openEvents(url, abort.signal);
    attempts = 0;
    opts.onOpen?.();
    for await (const batch of batches) {
      const before = buffer.length;
      for (const m of batch) {
        if (events.includes(m.event)) buffer.push(parse(m.data, m.event));
        if (opts.endEvent !== undefined && m.event === opts.endEvent) ended = true;
      }
      if (buffer.length > before) schedule();
    }
    if (ended) {
      flush();
      opts.onEnd?.();
    }
  };
  const connect = () => {
    if (closed) return;
    readOnce().then(
      // The server closed the stream (a restart, say): open it again.
      () => reconnectLater(),
      (err: unknown) => {
        if (closed) return;
        // A 401 here means the refresh failed too: the user is signed out, nothing to stream.
        if (err instanceof ApiError && err.status === 401) return;
        if (!(err instanceof ApiError)) console.warn(`event stream ${url} failed`, err);
        reconnectLater();
      },
    );
  };
  const reconnectLater = () => {
    if (closed || ended) return;
    attempts += 1;
    retry = setTimeout(connect, Math.min(30_000, 1000 * 2 ** Math.min(attempts - 1, 5)));
  };
  connect();

  return () => {
    flush();
    closed = true;
    clearTimeout(retry);
    abort.abort();
  };
}

/** React wrapper of openEventStream; `url` null keeps the stream closed. */
export function useEventStream<T>(url: string | null, opts: EventStreamOptions<T>): void {
  const latest = useRef(opts);
  latest.current = opts;
  useEffect(() => {
    if (!url) return;
    return openEventStream<T>(url, {
      event: latest.current.event,
      parse: latest.current.parse,
      flushMs: latest.current.flushMs,
      frameAligned: latest.current.frameAligned,
      endEvent: latest.current.endEvent,
      onEnd: () => latest.current.onEnd?.(),
      onBatch: (items) => latest.current.onBatch(items),
      onOpen: () => latest.current.onOpen?.(),
    });
  }, [url]);
}

/** Appends a batch to a list and keeps only the newest `max` entries (stats history: 300). */
export function appendCapped<T>(previous: readonly T[] | undefined, batch: readonly T[], max: number): T[] {
  const next = [...(previous ?? []), ...batch];
  return next.length > max ? next.slice(next.length - max) : next;
}
