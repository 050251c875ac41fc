import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import {
  Box,
  Center,
  Group,
  Pagination,
  Progress,
  Select,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSearch, IconSelector } from '@tabler/icons-react';
import { PageSelectBox, RowSelectBox, type RowSelection } from './SelectCells';
import { WindowedRows, WINDOWED_FROM } from './WindowedRows';
import {
  filterRows,
  nextSort,
  pageCount,
  pageRows,
  PAGE_SIZES,
  sortRows,
  type Column,
  type SortState,
} from './data-table-model';

export type { Column } from './data-table-model';
export type { RowSelection } from './SelectCells';

export interface DataTableProps<T> {
  data: readonly T[] | undefined;
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  /** Column keys not to show (a columns selector drives this). */
  hiddenColumns?: readonly string[];
  /** Shows a search box when set; its text is the placeholder. */
  searchPlaceholder?: string;
  /** 25 by default (spec); 0 means all. */
  pageSize?: number;
  pageSizeOptions?: readonly number[];
  defaultSort?: SortState;
  onRowClick?: (row: T) => void;
  /** Rendered in a last, unlabelled column (a row menu). Clicks there do not open the row. */
  rowMenu?: (row: T) => ReactNode;
  emptyText?: ReactNode;
  loading?: boolean;
  /** 0-100 for a determinate bar while `loading`; omitted for an indeterminate one. */
  progress?: number;
  /** Extra controls right of the search box (add button, refresh...). */
  toolbar?: ReactNode;
  label?: string;
  /** A first column of boxes (keys are rowKey's); `selectLabel` names a row for its box. */
  selection?: RowSelection & { selectLabel: (row: T) => string };
}

/**
 * The row menu stays pinned to the right edge while a wide table scrolls sideways, so on a phone
 * every row's actions are on screen without scrolling.
 */
const PINNED: CSSProperties = {
  position: 'sticky',
  right: 0,
  zIndex: 1,
  background: 'var(--mantine-color-body)',
  boxShadow: '-6px 0 6px -6px rgba(0, 0, 0, 0.25)',
};

function SortIcon({ active, direction }: { active: boolean; direction?: 'asc' | 'desc' }) {
  if (!active) return <IconSelector size={14} />;
  return direction === 'asc' ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />;
}

/** The one table of the app: search, sorting, paging (15/25/50/all), row click, row menu. */
export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, rowKey, onRowClick, rowMenu, selection } = props;
  const anchor = useRef<string | null>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState | null>(props.defaultSort ?? null);
  const [pageSize, setPageSize] = useState(props.pageSize ?? 25);
  const [page, setPage] = useState(1);
  const visible = useMemo(
    () => columns.filter((c) => !props.hiddenColumns?.includes(c.key)),
    [columns, props.hiddenColumns],
  );

  const rows = useMemo(
    () => sortRows(filterRows(props.data ?? [], visible, query), visible, sort),
    [props.data, visible, query, sort],
  );
  const pages = pageCount(rows.length, pageSize);
  useEffect(() => {
    if (page > pages) setPage(pages);
  }, [page, pages]);
  const shown = pageRows(rows, Math.min(page, pages), pageSize);
  const sizes = props.pageSizeOptions ?? PAGE_SIZES;
  const pageKeys = shown.map(rowKey);

  // A long page ("All" of thousands) draws only the rows on screen; a page of 15-50 draws them all.
  const windowed = shown.length > WINDOWED_FROM;
  const renderRow = (row: T, index?: number, measure?: (el: HTMLTableRowElement | null) => void) => (
    <Table.Tr
      key={rowKey(row)}
      ref={measure}
      data-index={index}
      aria-rowindex={index === undefined ? undefined : index + 2}
      onClick={onRowClick ? () => onRowClick(row) : undefined}
      style={onRowClick ? { cursor: 'pointer' } : undefined}
    >
      {selection && (
        <Table.Td onClick={(e) => e.stopPropagation()}>
          <RowSelectBox
            selection={selection}
            pageKeys={pageKeys}
            rowKey={rowKey(row)}
            label={selection.selectLabel(row)}
            anchor={anchor}
          />
        </Table.Td>
      )}
      {visible.map((col) => (
        <Table.Td key={col.key}>
          {col.render ? col.render(row) : String((row as Record<string, unknown>)[col.key] ?? '')}
        </Table.Td>
      ))}
      {rowMenu && (
        <Table.Td onClick={(e) => e.stopPropagation()} style={PINNED}>
          {rowMenu(row)}
        </Table.Td>
      )}
    </Table.Tr>
  );

  const header = visible.map((col) => (
    <Table.Th key={col.key} style={col.width !== undefined ? { width: col.width } : undefined}>
      {col.sortable ? (
        <UnstyledButton onClick={() => setSort(nextSort(sort, col.key))} aria-label={`Sort by ${col.header}`}>
          <Group gap={4} wrap="nowrap">
            <Text fw={600} size="sm">
              {col.header}
            </Text>
            <SortIcon active={sort?.key === col.key} direction={sort?.direction} />
          </Group>
        </UnstyledButton>
      ) : (
        col.header
      )}
    </Table.Th>
  ));

  return (
    <Box>
      {(props.searchPlaceholder !== undefined || props.toolbar) && (
        <Group mb="sm" justify="space-between" wrap="wrap">
          {props.searchPlaceholder !== undefined ? (
            <TextInput
              aria-label="Search"
              placeholder={props.searchPlaceholder}
              leftSection={<IconSearch size={16} />}
              value={query}
              onChange={(e) => {
                setQuery(e.currentTarget.value);
                setPage(1);
              }}
              style={{ flex: 1, minWidth: 180, maxWidth: 420 }}
            />
          ) : (
            <span />
          )}
          {props.toolbar && <Group gap="xs">{props.toolbar}</Group>}
        </Group>
      )}
      <Box h={4} mb={4}>
        {props.loading && (
          <Progress
            size={4}
            value={props.progress ?? 100}
            animated={props.progress === undefined}
            striped={props.progress === undefined}
            aria-label="Loading"
          />
        )}
      </Box>
      {/* A table that scrolls sideways (on a phone) can be scrolled with the keyboard too. */}
      <Table.ScrollContainer minWidth={500} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
        <Table
          highlightOnHover={!!onRowClick}
          verticalSpacing="xs"
          aria-label={props.label}
          aria-rowcount={windowed ? shown.length + 1 : undefined}
        >
          <Table.Thead>
            <Table.Tr aria-rowindex={windowed ? 1 : undefined}>
              {selection && (
                <Table.Th w={40}>
                  <PageSelectBox selection={selection} pageKeys={pageKeys} />
                </Table.Th>
              )}
              {header}
              {rowMenu && <Table.Th w={48} aria-label="Actions" style={PINNED} />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody ref={body}>
            {windowed ? (
              <WindowedRows
                count={shown.length}
                columns={visible.length + (selection ? 1 : 0) + (rowMenu ? 1 : 0)}
                body={body}
                render={(i, measure) => renderRow(shown[i]!, i, measure)}
              />
            ) : (
              shown.map((row) => renderRow(row))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {shown.length === 0 && !props.loading && (
        <Center py="lg">
          <Text c="dimmed">
            {query && (props.data?.length ?? 0) > 0 ? 'No matching rows.' : (props.emptyText ?? 'No data available.')}
          </Text>
        </Center>
      )}
      {sizes.length > 0 && (props.data?.length ?? 0) > 0 && (
        <Group justify="flex-end" mt="sm" gap="md">
          <Group gap={6}>
            <Text size="sm" c="dimmed">
              Rows per page
            </Text>
            <Select
              aria-label="Rows per page"
              size="xs"
              w={80}
              allowDeselect={false}
              data={sizes.map((s) => ({ value: String(s), label: s === 0 ? 'All' : String(s) }))}
              value={String(pageSize)}
              onChange={(v) => {
                setPageSize(Number(v));
                setPage(1);
              }}
            />
          </Group>
          <Text size="sm" c="dimmed">
            {rows.length === 0
              ? '0'
              : `${pageSize === 0 ? 1 : (page - 1) * pageSize + 1}-${pageSize === 0 ? rows.length : Math.min(page * pageSize, rows.length)}`}{' '}
            of {rows.length}
          </Text>
          {pages > 1 && (
            <Pagination
              size="sm"
              total={pages}
              value={Math.min(page, pages)}
              onChange={setPage}
              // Mantine's arrow buttons carry only an icon: each gets a name a screen reader can say.
              getControlProps={(control) => ({ 'aria-label': `${control[0]!.toUpperCase()}${control.slice(1)} page` })}
              getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
            />
          )}
        </Group>
      )}
    </Box>
  );
}
