import { Alert, Button, Group, Loader, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { projectApi } from '@berth/contract';
import { PasswordField } from '../../../components/PasswordField';
import { Section } from '../../../components/Section';
import { api } from '../../../lib/api-client';
import { errorMessage, notifyPlain } from '../../../lib/notify';
import { projectEnvQuery } from '../api/queries';
import { useEnvironment } from '../../../lib/environment';

/**
 * The project's `.env` beside its compose file: values stay masked (`********`) until revealed with
 * the current password; a masked line saved as is keeps its stored value.
 */
export function ProjectEnvCard({ name }: { name: string }) {
  const env = useQuery(projectEnvQuery(useEnvironment(), name));
  return (
    <Section title=".env">
      {env.isLoading && <Loader size="sm" />}
      {env.error && <Alert color="red">{errorMessage(env.error)}</Alert>}
      {env.data && (
        <EnvEditor key={env.dataUpdatedAt} name={name} initial={env.data.content} exists={env.data.exists} />
      )}
    </Section>
  );
}

function EnvEditor({ name, initial, exists }: { name: string; initial: string; exists: boolean }) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  const [content, setContent] = useState(initial);
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const save = useMutation({
    mutationFn: () => api(projectApi.writeEnv, { env, params: { name }, body: { content } }),
    meta: { notifyError: false },
    onSuccess: (res) => {
      queryClient.setQueryData(projectEnvQuery(env, name).queryKey, res);
      notifyPlain('Saved');
    },
  });
  const reveal = useMutation({
    mutationFn: () => api(projectApi.revealEnv, { env, params: { name }, body: { current_password: password } }),
    meta: { notifyError: false },
    onSuccess: (res) => {
      setContent(res.content);
      setAsking(false);
      setPassword('');
    },
  });
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {exists
          ? 'Values compose reads for ${…} in the file. Values are masked until revealed.'
          : 'No .env yet; saving creates it (readable by root only).'}
      </Text>
      <Textarea
        aria-label=".env content"
        ff="monospace"
        autosize
        minRows={3}
        maxRows={16}
        value={content}
        onChange={(e) => setContent(e.currentTarget.value)}
      />
      {save.error && (
        <Alert color="red" title="Not saved">
          {errorMessage(save.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        {exists && (
          <Button variant="default" onClick={() => setAsking(true)}>
            Reveal values
          </Button>
        )}
        <Button onClick={() => save.mutate()} loading={save.isPending} disabled={content === initial}>
          Save .env
        </Button>
      </Group>
      <Modal opened={asking} onClose={() => setAsking(false)} title="Reveal the .env values">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            reveal.mutate();
          }}
        >
          <Stack gap="sm">
            <PasswordField
              label="Current password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              data-autofocus
            />
            {reveal.error && <Alert color="red">{errorMessage(reveal.error)}</Alert>}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsking(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={reveal.isPending}>
                Reveal
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
