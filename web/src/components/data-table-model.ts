import type { ReactNode } from 'react';

export interface Column<T> {
  key: string;
  header: string;
  /** Cell content; default is `String(row[key])`. */
  render?: (row: T) => ReactNode;
  /** Text the search box matches; default is the sort value or `row[key]`. */
  searchValue?: (row: T) => string;
  /** Value to sort by; default is `row[key]`. */
  sortValue?: (row: T) => string | number | null | undefined;
  sortable?: boolean;
  /** Not searched (e.g. action cells). */
  noSearch?: boolean;
  width?: number | string;
}

export interface SortState {
  key: string;
  direction: 'asc' | 'desc';
}

/** Page sizes from the spec; 0 means all rows. */
export const PAGE_SIZES = [15, 25, 50, 0] as const;

const raw = <T>(row: T, key: string): unknown => (row as Record<string, unknown>)[key];

function sortValueOf<T>(col: Column<T>, row: T): string | number | null | undefined {
  if (col.sortValue) return col.sortValue(row);
  const v = raw(row, col.key);
  return typeof v === 'number' || typeof v === 'string' ? v : v == null ? v : String(v);
}

function searchTextOf<T>(col: Column<T>, row: T): string {
  if (col.searchValue) return col.searchValue(row);
  const v = col.sortValue ? col.sortValue(row) : raw(row, col.key);
  if (v == null) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Rows whose searchable columns contain every word of the query (case-insensitive). */
export function filterRows<T>(rows: readonly T[], columns: readonly Column<T>[], query: string): T[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...rows];
  const searchable = columns.filter((c) => !c.noSearch);
  return rows.filter((row) => {
    const text = searchable
      .map((c) => searchTextOf(c, row))
      .join(' ')
      .toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function sortRows<T>(rows: readonly T[], columns: readonly Column<T>[], sort: SortState | null): T[] {
  const col = sort && columns.find((c) => c.key === sort.key);
  if (!sort || !col) return [...rows];
  const dir = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = sortValueOf(col, a);
    const vb = sortValueOf(col, b);
    // Empty values go last whatever the direction.
    if (va == null || va === '') return vb == null || vb === '' ? 0 : 1;
    if (vb == null || vb === '') return -1;
    if (typeof va === 'number' && typeof vb === 'number') return (va - vb) * dir;
    return collator.compare(String(va), String(vb)) * dir;
  });
}

export function pageCount(total: number, pageSize: number): number {
  return pageSize === 0 ? 1 : Math.max(1, Math.ceil(total / pageSize));
}

export function pageRows<T>(rows: readonly T[], page: number, pageSize: number): T[] {
  if (pageSize === 0) return [...rows];
  const start = (page - 1) * pageSize;
  return rows.slice(start, start + pageSize);
}

export function nextSort(current: SortState | null, key: string): SortState | null {
  if (!current || current.key !== key) return { key, direction: 'asc' };
  if (current.direction === 'asc') return { key, direction: 'desc' };
  return null;
}
