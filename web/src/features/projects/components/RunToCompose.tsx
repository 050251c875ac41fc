import { Alert, Button, Group, Stack, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { projectApi, type ConvertedRun } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/notify';
import { useEnvironment } from '../../../lib/environment';

/** A `docker run …` line turned into a compose file by the server; the result replaces the editor's content. */
export function RunToCompose({ onConverted }: { onConverted: (content: string) => void }) {
  const env = useEnvironment();
  const [command, setCommand] = useState('');
  const convert = useMutation({
    mutationFn: (cmd: string) => api(projectApi.convertRun, { env, body: { command: cmd } }),
    meta: { notifyError: false },
    onSuccess: (res: ConvertedRun) => onConverted(res.content),
  });
  return (
    <Stack gap="xs">
      <Textarea
        label="From a docker run command"
        description="Paste a docker run line to start the file from it; nothing is run."
        placeholder="docker run -d -p 8080:80 --restart unless-stopped nginx:1.27"
        autosize
        minRows={1}
        maxRows={4}
        ff="monospace"
        value={command}
        onChange={(e) => setCommand(e.currentTarget.value)}
      />
      <Group>
        <Button
          variant="default"
          size="xs"
          disabled={!command.trim()}
          loading={convert.isPending}
          onClick={() => convert.mutate(command)}
        >
          Convert to compose
        </Button>
      </Group>
      {convert.error && (
        <Alert color="red" title="Not converted">
          {errorMessage(convert.error)}
        </Alert>
      )}
      {convert.data && convert.data.warnings.length > 0 && (
        <Alert color="yellow" title="Converted, with remarks">
          {convert.data.warnings.join(' ')}
        </Alert>
      )}
    </Stack>
  );
}
