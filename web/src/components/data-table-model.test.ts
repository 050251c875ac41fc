import { describe, expect, it } from 'vitest';
import { filterRows, nextSort, pageCount, pageRows, sortRows, type Column } from './data-table-model';

interface Row {
  name: string;
  size: number;
  tag?: string;
}
const rows: Row[] = [
  { name: 'web-10', size: 30, tag: 'nginx:latest' },
  { name: 'web-2', size: 10 },
  { name: 'Database', size: 20, tag: 'postgres:16' },
];
const columns: Column<Row>[] = [
  { key: 'name', header: 'Name', sortable: true },
  { key: 'size', header: 'Size', sortable: true },
  { key: 'tag', header: 'Tag', sortable: true },
];

describe('DataTable model', () => {
  it('filters case-insensitively on every word across columns', () => {
    expect(filterRows(rows, columns, 'DATA').map((r) => r.name)).toEqual(['Database']);
    expect(filterRows(rows, columns, 'web nginx').map((r) => r.name)).toEqual(['web-10']);
    expect(filterRows(rows, columns, '  ')).toHaveLength(3);
  });

  it('sorts numbers numerically, text naturally, and empty values last', () => {
    expect(sortRows(rows, columns, { key: 'name', direction: 'asc' }).map((r) => r.name)).toEqual([
      'Database',
      'web-2',
      'web-10',
    ]);
    expect(sortRows(rows, columns, { key: 'size', direction: 'desc' }).map((r) => r.size)).toEqual([30, 20, 10]);
    expect(sortRows(rows, columns, { key: 'tag', direction: 'desc' }).map((r) => r.name)).toEqual([
      'Database',
      'web-10',
      'web-2',
    ]);
  });

  it('cycles sorting asc, desc, off', () => {
    const a = nextSort(null, 'name');
    const d = nextSort(a, 'name');
    expect([a?.direction, d?.direction, nextSort(d, 'name')]).toEqual(['asc', 'desc', null]);
  });

  it('pages by the chosen size; 0 shows all rows', () => {
    const many = Array.from({ length: 60 }, (_, i) => i);
    expect(pageCount(60, 25)).toBe(3);
    expect(pageRows(many, 3, 25)).toEqual([50, 51, 52, 53, 54, 55, 56, 57, 58, 59]);
    expect(pageCount(60, 0)).toBe(1);
    expect(pageRows(many, 1, 0)).toHaveLength(60);
    expect(pageCount(0, 25)).toBe(1);
  });
});
