import { useCallback, useMemo, useRef, useState } from 'react';
import { Badge, Button, Group } from '@mantine/core';
import type { StreamStatus } from '@berth/contract';
import { useLogStream } from './log-stream';
import { LEVELS, matches, searchRegExp, type LogBuffer, type LogItem } from './model';
import { LogRows, type LogRowsHandle } from './LogRows';
import { DEFAULT_SETTINGS, LogToolbar, type LogSettings } from './LogToolbar';

export type LogQuery = Record<string, string>;

interface Props {
  /** The stream's URL (spec path) for a query. */
  streamUrl: (q: LogQuery) => string;
  /** Absent: the log has no download (swarm services). */
  downloadUrl?: (q: LogQuery) => string;
  /** Project logs: service tags and a service filter. */
  services?: string[];
  onStatus?: (s: StreamStatus) => void;
  /** Lines to start with (default 500); a kept log of an earlier container opens whole. */
  initialTail?: string;
  /** Settings to open with (e.g. a custom time range from the page's URL). */
  initial?: Partial<LogSettings>;
}

function rangeQuery(s: LogSettings): LogQuery {
  const q: LogQuery = {};
  if (s.range === 'custom') {
    if (s.since.trim()) q.since = s.since.trim();
    if (s.until.trim()) q.until = s.until.trim();
  } else if (s.range !== 'live') q.since = s.range;
  return q;
}

/** The log view with its toolbar: a stream in the json format, filtered and searched in the page. */
export function LogPanel({ streamUrl, downloadUrl, services, onStatus, initialTail, initial }: Props) {
  const [s, setS] = useState<LogSettings>(() => ({
    ...DEFAULT_SETTINGS,
    tail: initialTail ?? DEFAULT_SETTINGS.tail,
    ...initial,
  }));
  const set = useCallback((patch: Partial<LogSettings>) => setS((prev) => ({ ...prev, ...patch })), []);
  const range = rangeQuery(s);
  const url = streamUrl({ ...range, tail: s.tail, timestamps: '1', format: 'json' });
  const { buffer, ended, skipped, clear } = useLogStream(url, Number(s.keep), onStatus);
  const [frozen, setFrozen] = useState<LogBuffer | null>(null);
  const shown = frozen ?? buffer;
  const newLines = frozen ? buffer.dropped + buffer.items.length - (frozen.dropped + frozen.items.length) : 0;

  const re = useMemo(
    () => searchRegExp({ q: s.q, regex: s.regex, caseSensitive: s.caseSensitive }),
    [s.q, s.regex, s.caseSensitive],
  );
  const highlight = re instanceof RegExp ? re : null;
  const items = useMemo(() => {
    const min = s.minLevel === 'all' ? -1 : LEVELS.indexOf(s.minLevel);
    const chosen = new Set(s.services);
    return shown.items.filter(
      (i: LogItem) =>
        (min < 0 || (i.level !== null && LEVELS.indexOf(i.level) >= min)) &&
        (chosen.size === 0 || chosen.has(i.service ?? '')) &&
        (!s.matchingOnly || !highlight || matches(i, highlight)),
    );
  }, [shown, s.minLevel, s.services, s.matchingOnly, highlight]);
  const hits = useMemo(
    () => (highlight ? items.flatMap((i, n) => (matches(i, highlight) ? [n] : [])) : []),
    [items, highlight],
  );
  const [current, setCurrent] = useState<number | null>(null);
  const rows = useRef<LogRowsHandle>(null);
  const go = (step: 1 | -1) => {
    if (hits.length === 0) return;
    const at = current === null ? -1 : hits.indexOf(current);
    const next = hits[(at + step + hits.length) % hits.length]!;
    setCurrent(next);
    rows.current?.show(next);
  };
  const goRef = useRef(go);
  goRef.current = go;
  const paused = frozen !== null;
  const latest = useRef(buffer);
  latest.current = buffer;
  const downloadHref = downloadUrl ? downloadUrl({ ...range, timestamps: s.timestamps ? '1' : '0' }) : null;
  // The toolbar re-renders only when its own inputs change, not with every frame of new lines.
  const withServices = services !== undefined;
  const opts = useMemo(
    () => ({ timestamps: s.timestamps, services: withServices, pretty: s.pretty, wrap: s.wrap, highlight }),
    [s.timestamps, withServices, s.pretty, s.wrap, highlight],
  );
  const toolbar = useMemo(
    () => (
      <LogToolbar
        s={s}
        set={set}
        searchError={typeof re === 'string' ? re : null}
        hits={hits.length}
        onNext={() => goRef.current(1)}
        onPrev={() => goRef.current(-1)}
        paused={paused}
        onPause={() => setFrozen(paused ? null : latest.current)}
        downloadHref={downloadHref}
        onClear={() => {
          clear();
          setFrozen(null);
        }}
        serviceChoices={services}
      />
    ),
    [s, set, re, hits.length, paused, downloadHref, services],
  );

  return (
    // The count of lines received (kept or dropped), for the benchmark (scripts/bench/logs.ts).
    // data-skipped-lines: what the server left out because this view could not keep up.
    <div data-total-lines={buffer.dropped + buffer.items.length} data-skipped-lines={skipped}>
      {toolbar}
      {(newLines > 0 || ended || skipped > 0) && (
        <Group gap="xs" mb={4}>
          {newLines > 0 && (
            <Button size="compact-xs" radius="xl" onClick={() => setFrozen(null)}>
              {newLines} new lines
            </Button>
          )}
          {ended && <Badge variant="light">End of the time range</Badge>}
          {skipped > 0 && (
            <Badge variant="light" color="orange" title="The view could not keep up; the server sent the newest lines">
              {skipped.toLocaleString()} lines dropped
            </Badge>
          )}
        </Group>
      )}
      <LogRows
        ref={rows}
        items={items}
        dropped={shown.dropped}
        keep={Number(s.keep)}
        current={current}
        opts={opts}
        empty={ended ? 'No log lines in this time range.' : 'Waiting for log lines…'}
      />
    </div>
  );
}
