import { Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { formatDate } from '../../../lib/format';
import { errorMessage } from '../../../lib/notify';
import { useNextRun } from '../api';

/** "Next run at …" for a schedule as it is typed (asked of the server a moment after typing stops). */
export function NextRunPreview({ schedule, testId }: { schedule: string; testId?: string }) {
  const [settled] = useDebouncedValue(schedule.trim(), 300);
  const next = useNextRun(settled);
  let text = 'Reading the schedule…';
  // An empty schedule asks nothing (the query is off); a kept answer would be the previous schedule's.
  if (settled === '') text = 'No schedule.';
  else if (next.error) text = errorMessage(next.error);
  else if (next.data)
    text = next.data.next_run_at ? `Next run at ${formatDate(next.data.next_run_at)}` : 'The schedule never fires.';
  return (
    <Text size="sm" c={next.error && settled !== '' ? 'red' : 'dimmed'} data-testid={testId} aria-live="polite">
      {text}
    </Text>
  );
}
