import { useMemo } from 'react';
import { Text, TextInput } from '@mantine/core';
import { MIN_SCHEDULE_INTERVAL_MS, readSchedule } from '@berth/contract/cron';
import { formatDate } from '../../../lib/format';
import { useAutoUpdateSettings } from '../api';

/** What is wrong with a schedule as typed (the server's own rule, read with croner in the browser), or its next runs. */
function useScheduleCheck(schedule: string): { error: string | null; next: Date[] } {
  const settings = useAutoUpdateSettings().data;
  const minSeconds = settings?.min_interval_seconds ?? MIN_SCHEDULE_INTERVAL_MS / 1000;
  const zone = settings?.time_zone;
  return useMemo(() => {
    const expr = schedule.trim();
    if (!expr) return { error: null, next: [] };
    const read = readSchedule(expr, minSeconds * 1000, 3, zone);
    if (read.problem === 'unreadable')
      return { error: 'Not a cron expression (5 fields, or 6 with seconds first, e.g. "0 4 * * *").', next: [] };
    if (read.problem === 'too_often')
      return {
        error: `Runs more often than every ${minSeconds} seconds; each run pulls every image it covers.`,
        next: [],
      };
    return { error: null, next: read.next ?? [] };
  }, [schedule, minSeconds, zone]);
}

/**
 * A cron schedule field: marked invalid as it is typed, with its next three runs below it,
 * both worked out in the browser with the same croner code the server checks a save with.
 */
export function ScheduleField({
  value,
  onChange,
  placeholder,
  description,
  testId,
}: {
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  description?: string;
  testId?: string;
}) {
  const check = useScheduleCheck(value);
  const [first, ...then] = check.next;
  let preview: string | null = null;
  if (value.trim() && !check.error)
    preview = first
      ? `Next run at ${formatDate(first)}${then.length ? `, then ${then.map(formatDate).join(', ')}` : ''}`
      : 'The schedule never fires.';
  return (
    <div>
      <TextInput
        label="Schedule"
        description={description}
        placeholder={placeholder}
        value={value}
        error={check.error}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      {preview && (
        <Text size="sm" c="dimmed" mt={4} data-testid={testId} aria-live="polite">
          {preview}
        </Text>
      )}
    </div>
  );
}
