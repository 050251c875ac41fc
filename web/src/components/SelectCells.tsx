import type { MutableRefObject } from 'react';
import { Checkbox } from '@mantine/core';
import { pageState, togglePage, toggleRows } from './batch-model';

/** Which rows are selected (by row key) and how to change that; the table's owner keeps it. */
export interface RowSelection {
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
}

/** The header box: selects (or clears) every row of the page as filtered and sorted. */
export function PageSelectBox({ selection, pageKeys }: { selection: RowSelection; pageKeys: readonly string[] }) {
  const state = pageState(selection.selected, pageKeys);
  return (
    <Checkbox
      aria-label="Select every row on this page"
      checked={state === 'all' && pageKeys.length > 0}
      indeterminate={state === 'some'}
      disabled={pageKeys.length === 0}
      onChange={() => selection.onChange(togglePage(selection.selected, pageKeys))}
    />
  );
}

/** A row's box; shift-click selects the range from the row clicked before (`anchor`). */
export function RowSelectBox(props: {
  selection: RowSelection;
  pageKeys: readonly string[];
  rowKey: string;
  label: string;
  anchor: MutableRefObject<string | null>;
}) {
  const { selection, pageKeys, rowKey, anchor } = props;
  return (
    <Checkbox
      aria-label={`Select ${props.label}`}
      checked={selection.selected.has(rowKey)}
      onChange={(e) => {
        const shift = (e.nativeEvent as MouseEvent).shiftKey === true;
        selection.onChange(
          toggleRows(selection.selected, pageKeys, rowKey, e.currentTarget.checked, anchor.current, shift),
        );
        anchor.current = rowKey;
      }}
    />
  );
}
