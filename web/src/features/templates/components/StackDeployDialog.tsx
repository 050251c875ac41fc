import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { TemplateItem } from '@berth/contract';
import { useProjectFromTemplate } from '../api';

/** A project name from the template's: lower case letters, digits, dashes and underscores. */
const projectName = (item: TemplateItem) =>
  item.name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[^a-z0-9]+|-+$/g, '') || 'stack';

/**
 * Deploying a stack template: the user names the project and fills its values; the server fetches
 * the compose file and saves it as a project, which opens in the editor for review before `up`.
 */
export function StackDeployDialog({ item, onClose }: { item: TemplateItem | null; onClose: () => void }) {
  return (
    <Modal opened={item !== null} onClose={onClose} size="lg" title={item ? `Deploy stack ${item.title}` : ''}>
      {item && <StackDeployForm key={item.id} item={item} onClose={onClose} />}
    </Modal>
  );
}

function StackDeployForm({ item, onClose }: { item: TemplateItem; onClose: () => void }) {
  const navigate = useNavigate();
  const create = useProjectFromTemplate();
  const [name, setName] = useState(projectName(item));
  const [env, setEnv] = useState<Record<string, string>>(() => Object.fromEntries(item.env.map((e) => [e.name, e.default])));
  const submit = () =>
    create.mutate(
      { item_id: item.id, name, env },
      {
        onSuccess: (project) => {
          onClose();
          void navigate(`/projects/${encodeURIComponent(project.name)}/edit`);
        },
      },
    );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <Text size="sm">
          The compose file is fetched from <Text span ff="monospace">{item.stack?.url}</Text> and saved as a new project; it opens in the editor so you
          can review it before starting it.
        </Text>
        <TextInput label="Project name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
        {item.env.map((e) => (
          <TextInput
            key={e.name}
            label={e.label || e.name}
            description={e.description ?? undefined}
            value={env[e.name] ?? ''}
            onChange={(ev) => {
              const value = ev.currentTarget.value;
              setEnv((prev) => ({ ...prev, [e.name]: value }));
            }}
          />
        ))}
        {create.error && (
          <Alert color="red" title="The project was not created">
            {create.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create project
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
