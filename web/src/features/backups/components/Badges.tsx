import { Badge, Group, Text, Tooltip } from '@mantine/core';
import type { BackupArchive, BackupRun } from '@berth/contract';
import { formatDate } from '../../../lib/format';

/** Badges never shrink into a cut-off word beside a date in a narrow cell. */
const KEEP = { flexShrink: 0 } as const;
const OUTCOME_COLOR = { ok: 'green', failed: 'red', running: 'blue' } as const;

/** A run's outcome; a failure's error in its tooltip. */
export function RunBadge({ run }: { run: BackupRun | null }) {
  if (!run)
    return (
      <Badge variant="light" color="gray">
        never run
      </Badge>
    );
  const badge = (
    <Badge variant="light" color={OUTCOME_COLOR[run.outcome]} style={KEEP}>
      {run.outcome}
    </Badge>
  );
  return run.error ? (
    <Tooltip label={run.error} multiline maw={360}>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}

/** Whether an archive was proven to restore, and when (a failed check says so, with its error). */
export function VerifiedBadge({ archive }: { archive: Pick<BackupArchive, 'verified_at' | 'verify_error'> }) {
  if (archive.verify_error)
    return (
      <Tooltip label={archive.verify_error} multiline maw={360}>
        <Badge variant="light" color="red">
          check failed
        </Badge>
      </Tooltip>
    );
  if (!archive.verified_at)
    return (
      <Badge variant="light" color="gray">
        not verified
      </Badge>
    );
  return (
    <Group gap={6} wrap="nowrap">
      <Badge variant="light" color="green" style={KEEP}>
        verified
      </Badge>
      <Text size="sm">{formatDate(archive.verified_at)}</Text>
    </Group>
  );
}
