import { Progress, Stack, Text } from '@mantine/core';
import { formatBytes } from '../../../lib/format';

/** How much of an upload went up, as the browser counted it while sending. */
export function UploadProgress({ sent, total }: { sent: number; total: number }) {
  return (
    <Stack gap={4}>
      <Text size="sm" data-testid="upload-progress">
        {`Uploaded ${formatBytes(sent)} of ${formatBytes(total)}`}
      </Text>
      <Progress value={total ? Math.round((sent / total) * 100) : 100} aria-label="Upload progress" />
    </Stack>
  );
}
