import { Center, Text } from '@mantine/core';
import { DataTable, type Column } from '../../../components/DataTable';
import { useProcesses } from '../api/queries';
import { AppLoading } from './RunningOnly';

type Row = { key: string; cells: string[] };

/** The app's processes (docker top): one column per title, refreshed every few seconds. */
export function ProcessesTable({ name }: { name: string }) {
  const { data, isLoading } = useProcesses(name, true);
  if (isLoading) return <AppLoading />;
  if (!data || data.Titles.length === 0) {
    return (
      <Center py="xl">
        <Text c="red">Something Broke &gt;:(</Text>
      </Center>
    );
  }
  const pid = data.Titles.indexOf('PID');
  const rows: Row[] = data.Processes.map((cells, i) => ({ key: pid >= 0 ? `${cells[pid]}` : String(i), cells }));
  const columns: Column<Row>[] = data.Titles.map((title, i) => ({
    key: String(i),
    header: title,
    sortable: true,
    render: (r) => r.cells[i] ?? '',
    sortValue: (r) => (/^\d+$/.test(r.cells[i] ?? '') ? Number(r.cells[i]) : r.cells[i]),
  }));
  return (
    <DataTable
      label="Processes"
      data={rows}
      columns={columns}
      rowKey={(r) => r.key}
      searchPlaceholder="Search processes"
    />
  );
}
