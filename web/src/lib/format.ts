const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** Bytes with a 1024 base, units Bytes to YB, 2 decimals (spec section 9). */
export function formatBytes(bytes: number | null | undefined, decimals = 2): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '-';
  if (bytes === 0) return '0 Bytes';
  const sign = bytes < 0 ? '-' : '';
  const abs = Math.abs(bytes);
  const i = Math.min(UNITS.length - 1, Math.max(0, Math.floor(Math.log(abs) / Math.log(1024))));
  const value = abs / 1024 ** i;
  return `${sign}${parseFloat(value.toFixed(decimals))} ${UNITS[i]}`;
}

/** CPU and memory percent are shown as whole numbers. */
export function roundPercent(value: number | null | undefined): number {
  if (value === null || value === undefined || !Number.isFinite(value)) return 0;
  return Math.round(value);
}

export function formatPercent(value: number | null | undefined): string {
  return `${roundPercent(value)}%`;
}

/** Engine dates arrive as ISO strings or as Unix seconds. */
export function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d =
    value instanceof Date
      ? value
      : typeof value === 'number'
        ? new Date(value < 1e12 ? value * 1000 : value)
        : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Local date and time, e.g. '2024-03-01 14:05:09'. */
export function formatDate(value: string | number | Date | null | undefined): string {
  const d = toDate(value);
  if (!d) return '-';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Truncates with an ellipsis (template descriptions: 120 characters). */
export function truncate(text: string | null | undefined, max: number): string {
  if (!text) return '';
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}
