import type { ReactNode } from 'react';
import { DataTable, type Column } from './DataTable';

export interface KeyValueTableProps<T> {
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  label: string;
  emptyText?: ReactNode;
}

/** A short, unpaged table (environment, labels, sysctls, ports...) on the shared DataTable. */
export function KeyValueTable<T>({ rows, columns, rowKey, label, emptyText }: KeyValueTableProps<T>) {
  return (
    <DataTable
      label={label}
      data={rows}
      columns={columns}
      rowKey={rowKey}
      pageSize={0}
      pageSizeOptions={[]}
      emptyText={emptyText}
    />
  );
}
