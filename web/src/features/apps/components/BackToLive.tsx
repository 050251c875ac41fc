import { Alert, Button, Group, Text } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';

/** The notice over a tab opened at a moment (from the URL), with "Back to live", which drops that moment. */
export function BackToLive({ testId, children }: { testId: string; children: string }) {
  const [, setParams] = useSearchParams();
  return (
    <Alert color="blue" data-testid={testId}>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{children}</Text>
        <Button size="xs" variant="light" onClick={() => setParams({})}>
          Back to live
        </Button>
      </Group>
    </Alert>
  );
}
