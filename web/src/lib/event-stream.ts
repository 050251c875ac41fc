import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { refreshSession } from './api-client';
import { readEventStream } from './sse-fetch';

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
  /**
   * 'eventsource' (default) or 'fetch': read with fetch and parse in chunks, for streams that
   * can carry thousands of events a second (see sse-fetch.ts). Only events named in `event` count.
   */
  transport?: 'eventsource' | 'fetch';
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
 * Opens an EventSource and hands its messages over in batches, at most once per animation
 * frame or `flushMs`, so a noisy stream cannot re-render the page for every line.
 * Reconnects with backoff; a stream closed by a 401 refreshes the session first.
 * Returns a close function.
 */
export function openEventStream<T>(url: string, opts: EventStreamOptions<T>): () => void {
  const events = typeof opts.event === 'string' ? [opts.event] : (opts.event ?? ['update']);
  const parse = opts.parse ?? (defaultParse as (data: string) => T);
  const flushMs = opts.flushMs ?? 250;
  let source: EventSource | null = null;
  let buffer: T[] = [];
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let attempts = 0;
  let closed = false;

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
  const onMessage = (e: MessageEvent<string>) => {
    buffer.push(parse(e.data, e.type));
    schedule();
  };
  const onOpen = () => {
    attempts = 0;
    opts.onOpen?.();
  };
  const reconnectLater = (refreshFirst: boolean) => {
    attempts += 1;
    const delay = Math.min(30_000, 1000 * 2 ** Math.min(attempts - 1, 5));
    retry = setTimeout(() => {
      if (!refreshFirst) return connect();
      void refreshSession().then((ok) => {
        if (ok) connect();
      });
    }, delay);
  };

  let abort: AbortController | null = null;
  const connectFetch = () => {
    abort = new AbortController();
    const onEvent = (type: string, data: string) => {
      if (!events.includes(type)) return;
      buffer.push(parse(data, type));
      schedule();
    };
    readEventStream(url, { signal: abort.signal, onOpen, onEvent }).then(
      // The stream ended (the server closed it) or was refused: like EventSource, try again.
      (status) => !closed && reconnectLater(status === 401),
      (err: unknown) => {
        if (closed) return;
        console.warn(`event stream ${url} failed`, err);
        reconnectLater(false);
      },
    );
  };

  const connect = () => {
    if (closed) return;
    if (opts.transport === 'fetch') return connectFetch();
    source = new EventSource(url, { withCredentials: true });
    for (const event of events) source.addEventListener(event, onMessage as EventListener);
    source.onopen = onOpen;
    source.onerror = () => {
      // The browser retries by itself while CONNECTING; CLOSED means it gave up (HTTP error).
      if (!source || source.readyState !== EventSource.CLOSED) return;
      source.close();
      reconnectLater(true);
    };
  };
  connect();

  return () => {
    flush();
    closed = true;
    clearTimeout(retry);
    source?.close();
    abort?.abort();
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
      transport: latest.current.transport,
      onBatch: (items) => latest.current.onBatch(items),
      onOpen: () => latest.current.onOpen?.(),
    });
  }, [url]);
}

/**
 * Streams into the TanStack Query cache (live data lives there, not in component state):
 * each batch is folded into the entry at `queryKey` by `reduce`.
 */
export function useStreamIntoQuery<T, S>(
  url: string | null,
  queryKey: QueryKey,
  reduce: (previous: S | undefined, batch: T[]) => S,
  opts: { event?: string | readonly string[]; parse?: (data: string, event: string) => T; resetOnOpen?: boolean } = {},
): void {
  const queryClient = useQueryClient();
  const keyRef = useRef(queryKey);
  keyRef.current = queryKey;
  useEventStream<T>(url, {
    ...opts,
    onOpen: () => {
      if (opts.resetOnOpen) queryClient.removeQueries({ queryKey: keyRef.current, exact: true });
    },
    onBatch: (batch) => queryClient.setQueryData<S>(keyRef.current, (prev) => reduce(prev, batch)),
  });
}

/** Appends a batch to a list and keeps only the newest `max` entries (stats history: 300). */
export function appendCapped<T>(previous: readonly T[] | undefined, batch: readonly T[], max: number): T[] {
  const next = [...(previous ?? []), ...batch];
  return next.length > max ? next.slice(next.length - max) : next;
}
