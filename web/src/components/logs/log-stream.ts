import { useState } from 'react';
import { LogStreamEvent, StreamEvent, type LogEntry, type StreamStatus } from '@berth/contract';
import { useEventStream } from '../../lib/event-stream';
import { foldItems, type LogBuffer } from './model';

/** How often the view takes in new lines while they flood in (a lone line waits at most this long). */
const FLUSH_MS = 100;

type Item =
  { kind: 'lines'; lines: LogEntry[] } | { kind: 'status'; status: StreamStatus } | { kind: 'skipped'; count: number };

export interface LogStreamState {
  buffer: LogBuffer;
  /** The server said the range is complete (an `until` reached). */
  ended: boolean;
  /** Lines the server left out because this view could not keep up (its `dropped` events). */
  skipped: number;
  clear: () => void;
}

/**
 * Reads a log stream in the json format (`lines` batches), keeping the newest `keep` lines.
 * `url` null keeps it closed; a new url (another range) starts afresh.
 */
export function useLogStream(url: string | null, keep: number, onStatus?: (s: StreamStatus) => void): LogStreamState {
  const [buffer, setBuffer] = useState<LogBuffer>({ items: [], dropped: 0 });
  const [ended, setEnded] = useState(false);
  const [skipped, setSkipped] = useState(0);
  useEventStream<Item>(url, {
    event: [LogStreamEvent.lines, StreamEvent.status, LogStreamEvent.dropped],
    endEvent: LogStreamEvent.end,
    // Rendered every FLUSH_MS at most, not every animation frame: under a flood each render
    // re-lays out and repaints the whole view (in software without a GPU), which cost the page
    // more than the lines themselves; ten updates a second still read as live.
    frameAligned: false,
    flushMs: FLUSH_MS,
    parse: (data, event) =>
      event === StreamEvent.status
        ? { kind: 'status', status: JSON.parse(data) as StreamStatus }
        : event === LogStreamEvent.dropped
          ? { kind: 'skipped', count: (JSON.parse(data) as { dropped: number }).dropped }
          : { kind: 'lines', lines: JSON.parse(data) as LogEntry[] },
    onOpen: () => {
      setEnded(false);
      setSkipped(0);
      setBuffer({ items: [], dropped: 0 });
    },
    onEnd: () => setEnded(true),
    onBatch: (batch) => {
      const lines: LogEntry[] = [];
      let left = 0;
      for (const item of batch) {
        if (item.kind === 'lines') for (const l of item.lines) lines.push(l);
        else if (item.kind === 'skipped') left += item.count;
        else onStatus?.(item.status);
      }
      if (left) setSkipped((n) => n + left);
      if (lines.length) setBuffer((prev) => foldItems(prev, lines, keep));
    },
  });
  return {
    buffer,
    ended,
    skipped,
    clear: () => setBuffer((prev) => ({ items: [], dropped: prev.dropped + prev.items.length })),
  };
}
