import { useMemo, useState } from 'react';
import { Alert, Button, Group, List, Paper, ScrollArea, Text } from '@mantine/core';
import type { BatchItemResult } from '@berth/contract';
import { errorMessage } from '../lib/notify';
import { useCan, type RouteAccess } from '../lib/session';
import { ConfirmDialog } from './ConfirmDialog';
import { countOf, summaryText } from './batch-model';
import type { RowSelection } from './SelectCells';

/** One action the bar offers; `done` words the summary ("3 stopped"). */
export interface BatchAction<T, K extends string = string> {
  key: K;
  label: string;
  done: string;
  color?: string;
  /** Red confirm button (removals). */
  danger?: boolean;
  /** Offered only when it applies to every selected row (default: always). */
  applies?: (row: T) => boolean;
}

/** The one action of the resource tables' bars. */
export const REMOVE_ACTIONS: readonly BatchAction<unknown, 'remove'>[] = [
  { key: 'remove', label: 'Remove', done: 'removed', color: 'red', danger: true },
];

/**
 * A table's selection: the keys the table's boxes show, and the rows they name. `route` is the
 * batch call the selection is for: a role that may not call it gets no selection (no boxes, no bar).
 */
export function useBatchSelection<T>(
  rows: readonly T[] | undefined,
  rowKey: (row: T) => string,
  selectLabel: (row: T) => string,
  route: RouteAccess,
) {
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const allowed = useCan(route);
  const selectedRows = useMemo(
    () => (allowed ? (rows ?? []).filter((r) => selected.has(rowKey(r))) : []),
    [allowed, rows, selected, rowKey],
  );
  const selection: (RowSelection & { selectLabel: (row: T) => string }) | undefined = allowed
    ? { selected, onChange: setSelected, selectLabel }
    : undefined;
  return { selection, selectedRows };
}

export interface BatchBarProps<T, K extends string> {
  /** Singular and plural: ['app', 'apps']. */
  noun: readonly [string, string];
  selectedRows: readonly T[];
  /** None for a role that may not run the batch (see useBatchSelection): the bar is not shown. */
  selection: RowSelection | undefined;
  rowKey: (row: T) => string;
  /** What the server is sent for a row (its name or id). */
  itemOf: (row: T) => string;
  /** How a row is named to people (confirmation, summary). */
  labelOf: (row: T) => string;
  actions: readonly BatchAction<T, K>[];
  run: (action: K, items: string[]) => Promise<BatchItemResult[]>;
}

/**
 * The bar above a table while rows are selected: the count, the actions that apply to all of
 * them, one confirmation listing every name, then a summary; failed rows stay selected.
 */
export function BatchBar<T, K extends string>(props: BatchBarProps<T, K>) {
  return props.selection ? <SelectionBar {...props} selection={props.selection} /> : null;
}

function SelectionBar<T, K extends string>({
  noun,
  selectedRows,
  selection,
  rowKey,
  itemOf,
  labelOf,
  actions,
  run,
}: BatchBarProps<T, K> & { selection: RowSelection }) {
  const [confirming, setConfirming] = useState<BatchAction<T, K> | null>(null);
  const [pending, setPending] = useState(false);
  const [summary, setSummary] = useState<{ text: string; failed: boolean } | null>(null);
  const offered = actions.filter((a) => !a.applies || selectedRows.every(a.applies));
  const count = countOf(selectedRows.length, ...noun);

  const confirm = async (action: BatchAction<T, K>) => {
    const rows = [...selectedRows];
    const labels = new Map(rows.map((r) => [itemOf(r), labelOf(r)]));
    setPending(true);
    try {
      const results = await run(action.key, rows.map(itemOf));
      const failed = new Set(results.filter((r) => !r.ok).map((r) => r.name));
      setSummary({
        text: summaryText(
          results.map((r) => ({ ...r, name: labels.get(r.name) ?? r.name })),
          action.done,
        ),
        failed: failed.size > 0,
      });
      selection.onChange(new Set(rows.filter((r) => failed.has(itemOf(r))).map(rowKey)));
    } catch (err) {
      setSummary({ text: errorMessage(err), failed: true });
    } finally {
      setPending(false);
      setConfirming(null);
    }
  };

  return (
    <>
      {summary && (
        <Alert
          color={summary.failed ? 'orange' : 'green'}
          mb="sm"
          withCloseButton
          closeButtonLabel="Dismiss summary"
          onClose={() => setSummary(null)}
          data-testid="batch-summary"
        >
          {summary.text}
        </Alert>
      )}
      {selectedRows.length > 0 && (
        <Paper withBorder p="xs" mb="sm" role="region" aria-label="Selection">
          <Group gap="xs" wrap="wrap">
            <Text size="sm" fw={600} mr="sm">
              {count} selected
            </Text>
            {offered.map((a) => (
              <Button key={a.key} size="xs" variant="light" color={a.color} onClick={() => setConfirming(a)}>
                {a.label}
              </Button>
            ))}
            <Button size="xs" variant="subtle" color="gray" onClick={() => selection.onChange(new Set())}>
              Clear selection
            </Button>
          </Group>
        </Paper>
      )}
      <ConfirmDialog
        opened={confirming !== null}
        title={`${confirming?.label ?? ''} ${count}?`}
        confirmLabel={confirming?.label}
        danger={confirming?.danger ?? false}
        loading={pending}
        onConfirm={() => confirming && void confirm(confirming)}
        onCancel={() => setConfirming(null)}
      >
        <ScrollArea.Autosize mah={240} viewportProps={{ tabIndex: 0, 'aria-label': 'Selected items' }}>
          <List size="sm">
            {selectedRows.map((r) => (
              <List.Item key={rowKey(r)}>{labelOf(r)}</List.Item>
            ))}
          </List>
        </ScrollArea.Autosize>
      </ConfirmDialog>
    </>
  );
}
