import { useMemo, useRef, useState } from 'react';
import { Badge, Button, Group } from '@mantine/core';
import type { StreamStatus } from '@berth/contract';
import { environmentPath } from '@berth/contract';
import { currentEnvironment } from '../../../lib/environment';
import { useLogStream } from '../api';
import { LEVELS, matches, searchRegExp, type LogBuffer, type LogItem } from '../model';
import { LogRows, type LogRowsHandle } from './LogRows';
import { DEFAULT_SETTINGS, LogToolbar, type LogSettings } from './LogToolbar';

export type LogQuery = Record<string, string>;

interface Props {
  /** The stream's URL (spec path) for a query. */
  streamUrl: (q: LogQuery) => string;
  downloadUrl: (q: LogQuery) => string;
  /** Project logs: service tags and a service filter. */
  services?: string[];
  onStatus?: (s: StreamStatus) => void;
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
export function LogPanel({ streamUrl, downloadUrl, services, onStatus }: Props) {
  const [s, setS] = useState<LogSettings>(DEFAULT_SETTINGS);
  const set = (patch: Partial<LogSettings>) => setS((prev) => ({ ...prev, ...patch }));
  const range = rangeQuery(s);
  const url = streamUrl({ ...range, tail: s.tail, timestamps: '1', format: 'json' });
  const { buffer, ended, clear } = useLogStream(url, Number(s.keep), onStatus);
  const [frozen, setFrozen] = useState<LogBuffer | null>(null);
  const shown = frozen ?? buffer;
  const newLines = frozen ? buffer.dropped + buffer.items.length - (frozen.dropped + frozen.items.length) : 0;

  const re = useMemo(() => searchRegExp({ q: s.q, regex: s.regex, caseSensitive: s.caseSensitive }), [s.q, s.regex, s.caseSensitive]);
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
  const hits = useMemo(() => (highlight ? items.flatMap((i, n) => (matches(i, highlight) ? [n] : [])) : []), [items, highlight]);
  const [current, setCurrent] = useState<number | null>(null);
  const rows = useRef<LogRowsHandle>(null);
  const go = (step: 1 | -1) => {
    if (hits.length === 0) return;
    const at = current === null ? -1 : hits.indexOf(current);
    const next = hits[(at + step + hits.length) % hits.length]!;
    setCurrent(next);
    rows.current?.show(next);
  };

  return (
    <>
      <LogToolbar
        s={s}
        set={set}
        searchError={typeof re === 'string' ? re : null}
        hits={hits.length}
        onNext={() => go(1)}
        onPrev={() => go(-1)}
        paused={frozen !== null}
        onPause={() => setFrozen(frozen ? null : buffer)}
        downloadHref={environmentPath(downloadUrl({ ...range, timestamps: s.timestamps ? '1' : '0' }), currentEnvironment())}
        onClear={() => {
          clear();
          setFrozen(null);
        }}
        serviceChoices={services}
      />
      {(newLines > 0 || ended) && (
        <Group gap="xs" mb={4}>
          {newLines > 0 && (
            <Button size="compact-xs" radius="xl" onClick={() => setFrozen(null)}>
              {newLines} new lines
            </Button>
          )}
          {ended && <Badge variant="light">End of the time range</Badge>}
        </Group>
      )}
      <LogRows
        ref={rows}
        items={items}
        dropped={shown.dropped}
        keep={Number(s.keep)}
        current={current}
        opts={{ timestamps: s.timestamps, services: services !== undefined, pretty: s.pretty, highlight }}
        empty={ended ? 'No log lines in this time range.' : 'Waiting for log lines…'}
      />
    </>
  );
}
