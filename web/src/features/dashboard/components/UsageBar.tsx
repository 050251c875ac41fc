import { Group, Progress, Stack, Text } from '@mantine/core';
import { formatPercent, roundPercent } from '../../../lib/format';

/** A labelled usage bar; the bar is capped at 100 while the number shows the real value (CPU can exceed 100 % on several cores). */
export function UsageBar({
  label,
  percent,
  detail,
  color,
}: {
  label: string;
  percent: number;
  detail?: string;
  color: string;
}) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="sm" data-testid={`${label.toLowerCase()}-percent`}>
          {formatPercent(percent)}
          {detail && (
            <Text span size="xs" c="dimmed">
              {' '}
              {detail}
            </Text>
          )}
        </Text>
      </Group>
      <Progress
        value={Math.min(100, roundPercent(percent))}
        color={color}
        size="lg"
        radius="sm"
        aria-label={`${label} usage`}
      />
    </Stack>
  );
}
