import { useMemo } from 'react';
import { Text, TextInput } from '@mantine/core';
import { readSchedule } from '@berth/contract/cron';
import { formatDate } from '../lib/format';

/** What is wrong with a schedule as typed (the server's own rule, read with croner in the browser), or its next runs. */
function useCronCheck(schedule: string, minIntervalMs: number, zone?: string): { error: string | null; next: Date[] } {
  return useMemo(() => {
    const expr = schedule.trim();
    if (!expr) return { error: null, next: [] };
    const read = readSchedule(expr, minIntervalMs, 3, zone);
    if (read.problem === 'unreadable')
      return { error: 'Not a cron expression (5 fields, or 6 with seconds first, e.g. "0 4 * * *").', next: [] };
    if (read.problem === 'too_often')
      return { error: `Runs more often than every ${minIntervalMs / 1000} seconds.`, next: [] };
    return { error: null, next: read.next ?? [] };
  }, [schedule, minIntervalMs, zone]);
}

export interface CronFieldProps {
  value: string;
  onChange: (v: string) => void;
  label?: string;
  placeholder?: string;
  description?: string;
  testId?: string;
  /** The shortest interval the server accepts between two runs. */
  minIntervalMs: number;
  /** The time zone the server's scheduler fires in (default: the browser's). */
  timeZone?: string;
  /** Why a run is costly, added to the too-often error. */
  tooOftenNote?: string;
}

/**
 * A cron schedule field: marked invalid as it is typed, with its next three runs below it,
 * both worked out in the browser with the same croner code the server checks a save with.
 */
export function CronField({
  value,
  onChange,
  label = 'Schedule',
  minIntervalMs,
  timeZone,
  tooOftenNote,
  ...rest
}: CronFieldProps) {
  const check = useCronCheck(value, minIntervalMs, timeZone);
  const [first, ...then] = check.next;
  let preview: string | null = null;
  if (value.trim() && !check.error)
    preview = first
      ? `Next run at ${formatDate(first)}${then.length ? `, then ${then.map(formatDate).join(', ')}` : ''}`
      : 'The schedule never fires.';
  const error =
    check.error && tooOftenNote && check.error.startsWith('Runs more often')
      ? `${check.error} ${tooOftenNote}`
      : check.error;
  return (
    <div>
      <TextInput
        label={label}
        description={rest.description}
        placeholder={rest.placeholder}
        value={value}
        error={error}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      {preview && (
        <Text size="sm" c="dimmed" mt={4} data-testid={rest.testId} aria-live="polite">
          {preview}
        </Text>
      )}
    </div>
  );
}
