import { forwardRef, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState } from 'react';
import { Box, Button, Group, Text } from '@mantine/core';
import { IconArrowDown } from '@tabler/icons-react';
import { useVirtualizer, type Rect } from '@tanstack/react-virtual';
import { prettyJson, type LogItem } from './model';
import { LogLine, type LineOptions } from './LogLine';

/** Spec: the log view is 600 px high with 20 px rows. */
const HEIGHT = 600;
const ROW = 20;
/** Within this distance of the bottom counts as "at the bottom": the view keeps following. */
const STICK_SLACK = ROW * 2;
/**
 * The viewport's size as the virtualiser sees it: fixed, never measured. Measured, a viewport
 * that is not (yet) laid out at its fixed height (a style not applied, a parent that lets it grow
 * to its content) reads as tall as all its rows, and every row was rendered: 5000 in the DOM.
 * With a fixed rect the window is at most HEIGHT / ROW rows plus overscan, whatever the layout.
 */
const VIEWPORT: Rect = { width: 0, height: HEIGHT };
const observeFixedViewport = (_instance: unknown, onRect: (rect: Rect) => void) => onRect(VIEWPORT);

export interface LogRowsHandle {
  /** Scrolls a line into the middle of the view and stops following. */
  show(index: number): void;
}

interface Props {
  items: LogItem[];
  /** Lines dropped from the front so far (to keep the place when not following). */
  dropped: number;
  keep: number;
  opts: LineOptions;
  /** The line to mark as the current search hit. */
  current: number | null;
  empty: string;
}

/**
 * A virtualised log list: only the visible rows are in the DOM, so thousands of lines cost
 * no more than a screenful. It follows new lines while scrolled to the bottom and stays put
 * (even as old lines are dropped from the front) once the user scrolls up.
 */
export const LogRows = forwardRef<LogRowsHandle, Props>(function LogRows(
  { items, dropped, keep, opts, current, empty },
  ref,
) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  /** Where following last put the scroll position; null before the first lines. */
  const autoTop = useRef<number | null>(null);
  const lastDropped = useRef(dropped);
  const [following, setFollowing] = useState(true);
  const rows = (i: number) => (opts.pretty && items[i]?.json ? prettyJson(items[i].json).length : 1);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => ROW * rows(i),
    overscan: 30,
    initialRect: VIEWPORT,
    observeElementRect: observeFixedViewport,
  });
  useEffect(() => virtualizer.measure(), [opts.pretty, opts.wrap, virtualizer]);

  const setFollow = (on: boolean) => {
    follow.current = on;
    setFollowing(on);
  };
  useImperativeHandle(ref, () => ({
    show(index) {
      setFollow(false);
      virtualizer.scrollToIndex(index, { align: 'center' });
    },
  }));

  useLayoutEffect(() => {
    const el = scrollRef.current;
    const shift = dropped - lastDropped.current;
    lastDropped.current = dropped;
    if (!el) return;
    if (items.length === 0) {
      autoTop.current = null;
      return;
    }
    // New lines can arrive between a user's scroll and its scroll event: a position above
    // where following left it means the user moved up, so stop following before snapping back.
    if (follow.current && autoTop.current !== null && el.scrollTop < autoTop.current - STICK_SLACK) setFollow(false);
    if (follow.current) {
      el.scrollTop = el.scrollHeight;
      autoTop.current = el.scrollTop;
    } else if (shift > 0) el.scrollTop = Math.max(0, el.scrollTop - shift * ROW);
  }, [items, dropped]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_SLACK;
    if (atBottom !== follow.current) setFollow(atBottom);
  };
  const jumpToEnd = () => {
    setFollow(true);
    if (scrollRef.current) scrollRef.current.scrollTop = scrollRef.current.scrollHeight;
  };

  return (
    <Box>
      <Group justify="space-between" mb={4} mih={30}>
        <Text size="xs" c="dimmed">
          {items.length} lines{dropped > 0 ? ` (the newest ${keep} are kept)` : ''}
        </Text>
        {!following && items.length > 0 && (
          <Button size="compact-xs" variant="light" leftSection={<IconArrowDown size={14} />} onClick={jumpToEnd}>
            Follow
          </Button>
        )}
      </Group>
      <Box
        ref={scrollRef}
        onScroll={onScroll}
        onWheel={(e) => {
          if (e.deltaY < 0 && follow.current) setFollow(false);
        }}
        data-testid="log-view"
        role="log"
        aria-label="Logs"
        tabIndex={0}
        style={{
          height: HEIGHT,
          overflow: 'auto',
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-sm)',
          background: 'var(--mantine-color-body)',
        }}
      >
        {items.length === 0 ? (
          <Text c="dimmed" p="sm" size="sm">
            {empty}
          </Text>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: '100%' }}>
            {virtualizer.getVirtualItems().map((row) => (
              <div
                // Index keys: following a flood, every frame shows new lines; reusing the row
                // nodes and changing their text is cheaper than replacing them.
                key={row.index}
                data-log-line
                data-index={row.index}
                // Wrapped rows have heights only the layout knows: measured. Unwrapped rows are 20 px per line, never measured.
                ref={opts.wrap ? virtualizer.measureElement : undefined}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  minWidth: '100%',
                  ...(opts.wrap ? { width: '100%', wordBreak: 'break-all' as const } : { height: row.size }),
                  lineHeight: `${ROW}px`,
                  transform: `translateY(${row.start}px)`,
                  whiteSpace: opts.wrap ? 'pre-wrap' : 'pre',
                  padding: '0 8px',
                  fontFamily: 'var(--mantine-font-family-monospace)',
                  fontSize: 12,
                  background: row.index === current ? 'var(--mantine-color-yellow-light)' : undefined,
                }}
              >
                <LogLine item={items[row.index]!} opts={opts} />
              </div>
            ))}
          </div>
        )}
      </Box>
    </Box>
  );
});
