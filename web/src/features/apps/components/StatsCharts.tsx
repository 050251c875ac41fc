import { useState } from 'react';
import { Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { HISTORY_RANGES, type HistoryRange, type HistorySample, type StatsSample } from '@berth/contract';
import { TimeChart, type TimeSeries } from '../../../components/TimeChart';
import { formatBytes, formatPercent } from '../../../lib/format';
import { useQuery } from '@tanstack/react-query';
import { chartColumns, historyQuery, mergeHistory, RANGE_SECONDS } from '../api/history';
import { useEnvironment } from '../../../lib/environment';

const RANGE_LABELS: Record<HistoryRange, string> = {
  '10m': '10 min',
  '1h': '1 hour',
  '24h': '24 hours',
  '7d': '7 days',
};
const CPU = 'var(--mantine-color-blue-6)';
const MEM = 'var(--mantine-color-grape-6)';

function ChartCard({ title, numbers, children }: { title: string; numbers: string; children: React.ReactNode }) {
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Text size="sm" data-testid={`${title.toLowerCase()}-numbers`}>
          {numbers}
        </Text>
      </Group>
      {children}
    </Paper>
  );
}

const stepText = (step: number) => (step % 60 === 0 ? `${step / 60} min` : `${step} s`);

/** What the solid and dashed lines are: one reading a second, or the mean and the highest reading of each step. */
function Legend({ color, step }: { color: string; step: number }) {
  const items =
    step > 1
      ? [
          { dash: false, text: `Mean of each ${stepText(step)}` },
          { dash: true, text: `Highest reading of each ${stepText(step)}` },
        ]
      : [{ dash: false, text: 'One reading a second' }];
  return (
    <Group gap="md" mt={4} data-testid="chart-legend">
      {items.map((it) => (
        <Group key={it.text} gap={6} wrap="nowrap">
          <svg width="24" height="8" aria-hidden="true">
            <line
              x1="0"
              y1="4"
              x2="24"
              y2="4"
              stroke={color}
              strokeWidth="2"
              strokeDasharray={it.dash ? '4 4' : undefined}
            />
          </svg>
          <Text size="xs" c="dimmed">
            {it.dash ? 'Dashed' : 'Solid'}: {it.text}
          </Text>
        </Group>
      ))}
    </Group>
  );
}

/** The chart's columns: the mean line, and the max line where a step holds more than one reading. */
function lines(
  points: HistorySample[],
  mean: (p: HistorySample) => number,
  max: (p: HistorySample) => number,
  color: string,
  step: number,
) {
  const { times, values } = chartColumns(points, step, step > 1 ? [mean, max] : [mean]);
  const series: TimeSeries[] = [{ label: step > 1 ? 'Mean' : 'Value', color, values: values[0]! }];
  if (step > 1) series.push({ label: 'Max', color, values: values[1]!, dash: true });
  return { times, series };
}

/**
 * CPU and memory of one app: the kept history of the chosen range at once, then the live
 * samples (`live`, newest last) as they come. Current is the newest reading, Max the highest of the range.
 */
export function StatsCharts({
  name,
  live,
  at,
  initialRange = '10m',
}: {
  name: string;
  live: StatsSample[] | undefined;
  /** A moment to mark on both charts (ms), e.g. when the app stopped. */
  at?: number;
  initialRange?: HistoryRange;
}) {
  const [range, setRange] = useState<HistoryRange>(initialRange);
  const marker = at === undefined ? undefined : Math.floor(at / 1000);
  // Read afresh when the tab opens and when the range changes: a window cached earlier (by the
  // dashboard's sparkline, or this tab a while ago) would leave a hole before the live samples.
  const history = useQuery({ ...historyQuery(useEnvironment(), name, range), staleTime: 0 });
  const step = history.data?.step ?? 1;
  const points = mergeHistory(history.data?.samples ?? [], range === '10m' ? (live ?? []) : [], RANGE_SECONDS[range]);
  const last = live?.at(-1);
  const cpuMax = points.length ? Math.max(...points.map((p) => p.cpu_max)) : undefined;
  const memMax = points.length ? Math.max(...points.map((p) => p.mem_max)) : undefined;
  const cpuNow = last?.cpu_percent ?? points.at(-1)?.cpu_percent;
  const memNow = last?.mem_current ?? points.at(-1)?.mem_current;

  return (
    <Stack>
      <Group justify="flex-end">
        <SegmentedControl
          aria-label="Range"
          value={range}
          onChange={(v) => setRange(v as HistoryRange)}
          data={HISTORY_RANGES.map((r) => ({ value: r, label: RANGE_LABELS[r] }))}
        />
      </Group>
      {history.isPending || points.length === 0 ? (
        <Text c="dimmed" py="xl" ta="center">
          {history.isPending ? 'Loading the history…' : 'Waiting for the first sample…'}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <ChartCard title="CPU" numbers={`Current ${formatPercent(cpuNow)} · Max ${formatPercent(cpuMax)}`}>
            <TimeChart
              label="CPU usage chart"
              {...lines(
                points,
                (p) => p.cpu_percent,
                (p) => p.cpu_max,
                CPU,
                step,
              )}
              max={100}
              format={(v) => `${Math.round(v)}%`}
              span={RANGE_SECONDS[range]}
              marker={marker}
            />
            <Legend color={CPU} step={step} />
          </ChartCard>
          <ChartCard
            title="Memory"
            numbers={`Current ${formatBytes(memNow)}${last ? ` of ${formatBytes(last.mem_total)} (${formatPercent(last.mem_percent)})` : ''} · Max ${formatBytes(memMax)}`}
          >
            <TimeChart
              label="Memory usage chart"
              {...lines(
                points,
                (p) => p.mem_current,
                (p) => p.mem_max,
                MEM,
                step,
              )}
              format={(v) => formatBytes(v, 1)}
              span={RANGE_SECONDS[range]}
              marker={marker}
            />
            <Legend color={MEM} step={step} />
          </ChartCard>
        </SimpleGrid>
      )}
    </Stack>
  );
}
