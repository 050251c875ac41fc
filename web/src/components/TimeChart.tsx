import { useEffect, useRef } from 'react';
import { Box } from '@mantine/core';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface TimeSeries {
  label: string;
  color: string;
  /** One value per time; null is a gap. */
  values: (number | null)[];
  dash?: boolean;
}

export interface TimeChartProps {
  /** Seconds since the epoch, oldest first. */
  times: number[];
  series: TimeSeries[];
  /** Accessible name of the chart (role img). */
  label: string;
  height?: number;
  /** Fixed top of the scale (100 for percent charts; a busier value raises it); else fitted. */
  max?: number;
  format: (v: number) => string;
  /** A sparkline: no axes, no cursor, no tooltip. */
  compact?: boolean;
  /** Seconds the time axis spans, ending now (or at the newest point): the chosen range, however few points there are. */
  span?: number;
  /** A moment to mark with a vertical line (seconds since the epoch), e.g. when the app stopped. */
  marker?: number;
}

/** Canvas colours cannot be CSS variables: `var(--x)` is read from the page's theme. */
function cssColor(value: string, el: HTMLElement): string {
  const name = /^var\((--[\w-]+)\)$/.exec(value)?.[1];
  return name ? getComputedStyle(el).getPropertyValue(name).trim() || 'gray' : value;
}

const timeFormat = (t: number) =>
  new Date(t * 1000).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

/** A floating tooltip with the time and every series' value under the cursor. */
function tooltipPlugin(format: (v: number) => string, names: string[]): uPlot.Plugin {
  let tip: HTMLDivElement;
  return {
    hooks: {
      init: (u) => {
        tip = document.createElement('div');
        tip.setAttribute('role', 'tooltip');
        tip.style.cssText =
          'position:absolute;pointer-events:none;display:none;z-index:10;padding:4px 8px;border-radius:4px;font-size:12px;white-space:nowrap;background:var(--mantine-color-body);border:1px solid var(--mantine-color-default-border);';
        u.over.appendChild(tip);
      },
      setCursor: (u) => {
        const i = u.cursor.idx;
        if (i === null || i === undefined || u.cursor.left === undefined || u.cursor.left < 0)
          return void (tip.style.display = 'none');
        const rows = names.map((n, s) => {
          const v = u.data[s + 1]?.[i];
          return `${n}: ${v === null || v === undefined ? '–' : format(v)}`;
        });
        tip.textContent = '';
        for (const line of [timeFormat(u.data[0][i]!), ...rows])
          tip.appendChild(Object.assign(document.createElement('div'), { textContent: line }));
        tip.style.display = 'block';
        const left = Math.min(u.cursor.left + 12, u.over.clientWidth - tip.offsetWidth);
        tip.style.left = `${Math.max(0, left)}px`;
        tip.style.top = `${Math.max(0, (u.cursor.top ?? 0) - tip.offsetHeight - 8)}px`;
      },
    },
  };
}

/** A dashed vertical line at `at()` (seconds), drawn over the series. */
function markerPlugin(at: () => number | undefined, color: string): uPlot.Plugin {
  return {
    hooks: {
      draw: (u) => {
        const t = at();
        if (t === undefined) return;
        const x = Math.round(u.valToPos(t, 'x', true));
        const { top, height } = u.bbox;
        const ctx = u.ctx;
        ctx.save();
        ctx.strokeStyle = color;
        ctx.lineWidth = 2 * uPlot.pxRatio;
        ctx.setLineDash([6 * uPlot.pxRatio, 4 * uPlot.pxRatio]);
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, top + height);
        ctx.stroke();
        ctx.restore();
      },
    },
  };
}

/**
 * Time series drawn by uPlot (small and fast: tens of thousands of points redraw in a few
 * milliseconds). The chart is made once per shape and only given new data afterwards.
 */
export function TimeChart({
  times,
  series,
  label,
  height = 200,
  max,
  format,
  compact = false,
  span,
  marker,
}: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data = [times, ...series.map((s) => s.values)] as uPlot.AlignedData;
  const shape = `${series.map((s) => s.label + s.color).join('|')}|${compact}|${height}|${max}`;
  const to = Math.max(times.at(-1) ?? 0, Math.floor(Date.now() / 1000));
  const axis = span ? ([to - span, to] as [number, number]) : null;
  const latest = useRef({ data, format, axis, marker });
  latest.current = { data, format, axis, marker };

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const fmt = (v: number) => latest.current.format(v);
    const dimmed = cssColor('var(--mantine-color-dimmed)', el);
    const opts: uPlot.Options = {
      width: Math.max(100, el.clientWidth),
      height,
      legend: { show: false },
      cursor: compact ? { show: false } : { y: false, points: { size: 6 } },
      scales: {
        x: {
          time: true,
          range: (_u, min, dataMax) => latest.current.axis ?? [min, dataMax],
        },
        y: {
          range: (_u, _min, dataMax) => [0, max === undefined ? Math.max(1, dataMax * 1.1) : Math.max(max, dataMax)],
        },
      },
      axes: compact
        ? [{ show: false }, { show: false }]
        : [
            { stroke: dimmed, grid: { stroke: 'rgba(128,128,128,0.15)' }, ticks: { show: false } },
            {
              stroke: dimmed,
              grid: { stroke: 'rgba(128,128,128,0.15)' },
              ticks: { show: false },
              size: 70,
              values: (_u, ticks) => ticks.map(fmt),
            },
          ],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          stroke: cssColor(s.color, el),
          width: compact ? 1.5 : 2,
          dash: s.dash ? [4, 4] : undefined,
          points: { show: false },
        })),
      ],
      plugins: compact
        ? []
        : [
            tooltipPlugin(
              fmt,
              series.map((s) => s.label),
            ),
            markerPlugin(() => latest.current.marker, cssColor('var(--mantine-color-red-6)', el)),
          ],
    };
    const u = new uPlot(opts, latest.current.data, el);
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(100, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // Rebuilt only when the chart's shape changes; data alone goes through setData below.
  }, [shape]);

  useEffect(() => {
    plot.current?.setData(data);
  });

  return (
    <Box
      ref={box}
      role="img"
      aria-label={label}
      data-points={times.length}
      data-span={axis ? axis[1] - axis[0] : undefined}
      data-marker={marker}
      style={{ position: 'relative', width: '100%', minHeight: height }}
    />
  );
}
