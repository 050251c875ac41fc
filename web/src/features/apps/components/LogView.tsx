import { useLayoutEffect, useRef, useState } from 'react';
import { Box, Button, Group, Text } from '@mantine/core';
import { IconArrowDown } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { LogBuffer } from '../api/live-model';

/** Spec: the log view is 600 px high with 20 px rows. */
const HEIGHT = 600;
const ROW = 20;
/** Within this distance of the bottom counts as "at the bottom": the view keeps following. */
const STICK_SLACK = ROW * 2;

/**
 * A virtualised log list: only the visible rows are in the DOM, so thousands of lines cost
 * no more than a screenful. It follows new lines while scrolled to the bottom and stays put
 * (even as old lines are dropped from the front) once the user scrolls up.
 */
export function LogView({ buffer }: { buffer: LogBuffer | undefined }) {
  const lines = buffer?.lines ?? [];
  const dropped = buffer?.dropped ?? 0;
  const scrollRef = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  const lastDropped = useRef(dropped);
  const [following, setFollowing] = useState(true);
  const virtualizer = useVirtualizer({ count: lines.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW, overscan: 30 });

  useLayoutEffect(() => {
    const el = scrollRef.current;
    const shift = dropped - lastDropped.current;
    lastDropped.current = dropped;
    if (!el) return;
    if (follow.current) el.scrollTop = el.scrollHeight;
    else if (shift > 0) el.scrollTop = Math.max(0, el.scrollTop - shift * ROW);
  }, [buffer, dropped]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_SLACK;
    follow.current = atBottom;
    if (atBottom !== following) setFollowing(atBottom);
  };
  const jumpToEnd = () => {
    follow.current = true;
    setFollowing(true);
    if (scrollRef.current) scrollRef.current.scrollTop = scrollRef.current.scrollHeight;
  };

  return (
    <Box pos="relative">
      <Box
        ref={scrollRef}
        onScroll={onScroll}
        h={HEIGHT}
        data-testid="log-view"
        role="log"
        aria-label="Logs"
        style={{ overflow: 'auto', border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)', background: 'var(--mantine-color-body)' }}
      >
        {lines.length === 0 ? (
          <Text c="dimmed" p="sm" size="sm">
            Waiting for log lines…
          </Text>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: '100%' }}>
            {virtualizer.getVirtualItems().map((row) => (
              <div
                key={row.index + dropped}
                data-log-line
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  minWidth: '100%',
                  height: ROW,
                  lineHeight: `${ROW}px`,
                  transform: `translateY(${row.start}px)`,
                  whiteSpace: 'pre',
                  padding: '0 8px',
                  fontFamily: 'var(--mantine-font-family-monospace)',
                  fontSize: 12,
                }}
              >
                {lines[row.index]}
              </div>
            ))}
          </div>
        )}
      </Box>
      {!following && lines.length > 0 && (
        <Group pos="absolute" bottom={12} right={24}>
          <Button size="xs" radius="xl" leftSection={<IconArrowDown size={14} />} onClick={jumpToEnd}>
            Follow
          </Button>
        </Group>
      )}
    </Box>
  );
}
