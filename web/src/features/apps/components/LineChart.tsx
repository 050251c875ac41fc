import { Box, Group, Stack, Text } from '@mantine/core';

export interface LineChartProps {
  /** null is a gap: the line breaks there. */
  values: readonly (number | null)[];
  /** How many points fill the width; the newest point sits at the right edge. */
  capacity: number;
  /** Top of the scale (spec: CPU and memory charts are drawn 0-100 %). */
  max?: number;
  height?: number;
  color?: string;
  label: string;
}

const GRID = [0, 25, 50, 75, 100];

/**
 * A line chart as one SVG polyline: a few hundred points on a fixed 0-max scale need no chart
 * library. Values above the scale are drawn at the top (a busy multi-core app can read 200 %).
 */
export function LineChart({ values, capacity, max = 100, height = 180, color = 'var(--mantine-primary-color-filled)', label }: LineChartProps) {
  const width = Math.max(1, capacity - 1);
  const shown = values.slice(-capacity);
  const offset = capacity - shown.length;
  const y = (v: number) => 100 - (Math.min(Math.max(v, 0), max) / max) * 100;
  const segments = splitAtGaps(shown.map((v, i) => (v === null ? null : ([offset + i, y(v)] as const))));
  return (
    <Group gap={6} align="stretch" wrap="nowrap">
      <Stack justify="space-between" gap={0} h={height} py={0}>
        {[...GRID].reverse().map((g) => (
          <Text key={g} size="xs" c="dimmed" lh={1} ta="right" w={36}>
            {Math.round((g / 100) * max)}%
          </Text>
        ))}
      </Stack>
      <Box style={{ flex: 1, minWidth: 0 }}>
        <svg role="img" aria-label={label} width="100%" height={height} viewBox={`0 0 ${width} 100`} preserveAspectRatio="none" style={{ display: 'block', overflow: 'visible' }}>
          {GRID.map((g) => (
            <line key={g} x1={0} x2={width} y1={g} y2={g} stroke="var(--mantine-color-default-border)" strokeWidth={1} vectorEffect="non-scaling-stroke" />
          ))}
          {segments.map((seg) =>
            seg.length === 1 ? (
              <circle key={seg[0]![0]} cx={seg[0]![0]} cy={seg[0]![1]} r={1.5} fill={color} />
            ) : (
              <polyline key={seg[0]![0]} points={seg.map((p) => p.join(',')).join(' ')} fill="none" stroke={color} strokeWidth={2} strokeLinejoin="round" vectorEffect="non-scaling-stroke" />
            ),
          )}
        </svg>
      </Box>
    </Group>
  );
}

type Point = readonly [number, number];

/** Runs of points between gaps (nulls). */
function splitAtGaps(points: readonly (Point | null)[]): Point[][] {
  const runs: Point[][] = [];
  let run: Point[] = [];
  for (const p of points) {
    if (p) run.push(p);
    else if (run.length) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  return runs;
}
