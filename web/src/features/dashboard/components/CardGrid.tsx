import { useRef } from 'react';
import { Box, useMatches } from '@mantine/core';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { HealthStatus } from '@berth/contract';
import { useDocumentTop } from '../../../lib/document-top';
import { AppStatsCard } from './AppStatsCard';

/** A measured card's height with the gap below it; rows are measured once drawn. */
const ROW_ESTIMATE = 226;
const GAP = 16;
/** Rows drawn beyond the screen on each side: a Tab to the next card finds it in the page. */
const OVERSCAN = 2;

/**
 * The app cards in rows of 1-4 (by screen width, as the grid had them), only the rows on screen
 * and a margin drawn: 500 running apps cost the page what a screenful does. The page keeps its
 * full height, so the scroll bar, the sections below and scrolling behave as with every card in
 * place. A list to assistive technology: each card says its place in the whole (aria-posinset).
 */
export function CardGrid({
  names,
  health,
}: {
  names: readonly string[];
  health: Readonly<Record<string, HealthStatus>>;
}) {
  const cols = useMatches({ base: 1, sm: 2, lg: 3, xl: 4 }, { getInitialValueInEffect: false });
  const list = useRef<HTMLDivElement>(null);
  const top = useDocumentTop(list);
  const rows = Math.ceil(names.length / cols);
  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => ROW_ESTIMATE,
    overscan: OVERSCAN,
    scrollMargin: top,
  });
  const items = virtualizer.getVirtualItems();
  return (
    <Box
      ref={list}
      role="list"
      aria-label="Running applications"
      data-testid="app-cards"
      data-cards={names.length}
      style={{ position: 'relative', height: virtualizer.getTotalSize() }}
    >
      {items.map((row) => (
        <Box
          key={row.key}
          data-index={row.index}
          ref={virtualizer.measureElement}
          style={{
            position: 'absolute',
            top: 0,
            left: 0,
            width: '100%',
            transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
            paddingBottom: GAP,
            display: 'grid',
            gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))`,
            gap: GAP,
          }}
        >
          {names.slice(row.index * cols, row.index * cols + cols).map((name, i) => (
            <div key={name} role="listitem" aria-setsize={names.length} aria-posinset={row.index * cols + i + 1}>
              <AppStatsCard name={name} health={health[name]} />
            </div>
          ))}
        </Box>
      ))}
    </Box>
  );
}
