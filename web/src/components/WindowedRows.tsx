import type { ReactNode, RefObject } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useDocumentTop } from '../lib/document-top';

/** A table body longer than this draws only its rows on screen (and a margin). */
export const WINDOWED_FROM = 100;
const ROW_ESTIMATE = 45;
const OVERSCAN = 10;

/** A row standing in for the rows above or below the drawn window, as tall as they would be. */
function Spacer({ height, columns }: { height: number; columns: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true" style={{ height }}>
      <td colSpan={columns} style={{ padding: 0, border: 0 }} />
    </tr>
  );
}

/**
 * The rows of a long table body (thousands: "All" rows per page on 5,000 containers) with only
 * those on screen and a margin in the page; two spacer rows keep the table as tall as all its
 * rows, so the page scrolls as it would with every row there. `render` draws row `index` and
 * hands `measure` to its <tr> (rows are measured once drawn) with `aria-rowindex` for the row's
 * place in the whole table (the table itself says `aria-rowcount`).
 */
export function WindowedRows({
  count,
  columns,
  body,
  render,
}: {
  count: number;
  columns: number;
  /** The table body, to know where the rows start in the page. */
  body: RefObject<HTMLElement | null>;
  render: (index: number, measure: (el: HTMLTableRowElement | null) => void) => ReactNode;
}) {
  const top = useDocumentTop(body);
  const virtualizer = useWindowVirtualizer({
    count,
    estimateSize: () => ROW_ESTIMATE,
    overscan: OVERSCAN,
    scrollMargin: top,
  });
  const items = virtualizer.getVirtualItems();
  const margin = virtualizer.options.scrollMargin;
  const before = (items[0]?.start ?? margin) - margin;
  const after = virtualizer.getTotalSize() - ((items.at(-1)?.end ?? margin) - margin);
  return (
    <>
      <Spacer height={before} columns={columns} />
      {items.map((item) => render(item.index, virtualizer.measureElement))}
      <Spacer height={after} columns={columns} />
    </>
  );
}
