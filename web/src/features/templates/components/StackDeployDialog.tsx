import { Alert, Button, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { swarmApi, type TemplateItem } from '@berth/contract';
import { useCan } from '../../../lib/session';
import { useIsSwarmManager } from '../../environments';
import { useProjectFromTemplate, useStackFromTemplate } from '../api';

/** A project name from the template's: lower case letters, digits, dashes and underscores. */
const projectName = (item: TemplateItem) =>
  item.name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[^a-z0-9]+|-+$/g, '') || 'stack';

/**
 * Deploying a stack template: the user names the project and fills its values; the server fetches
 * the compose file and saves it as a project, which opens in the editor for review before `up`.
 * On a swarm manager it can be made a swarm stack instead, opened in the stack editor to deploy.
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
  const swarmManager = useIsSwarmManager();
  const swarm = useCan(swarmApi.stackFromTemplate) && swarmManager;
  // Follows the default until the user picks: the swarm status may arrive after the dialog opens.
  const [picked, setAs] = useState<'project' | 'stack' | null>(null);
  const as = picked ?? (swarm && item.stack?.kind === 'swarm' ? 'stack' : 'project');
  const asStack = swarm && as === 'stack';
  const project = useProjectFromTemplate();
  const stack = useStackFromTemplate();
  const create = asStack ? stack : project;
  const [name, setName] = useState(projectName(item));
  const [env, setEnv] = useState<Record<string, string>>(() =>
    Object.fromEntries(item.env.map((e) => [e.name, e.default])),
  );
  const opened = (path: string) => {
    onClose();
    void navigate(path);
  };
  const submit = () =>
    asStack
      ? stack.mutate(
          { item_id: item.id, name, env },
          { onSuccess: (s) => opened(`/swarm/stacks/${encodeURIComponent(s.name)}`) },
        )
      : project.mutate(
          { item_id: item.id, name, env },
          { onSuccess: (p) => opened(`/projects/${encodeURIComponent(p.name)}/edit`) },
        );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        {swarm && (
          <SegmentedControl
            aria-label="Create as"
            data={[
              { value: 'project', label: 'As a compose project' },
              { value: 'stack', label: 'As a swarm stack' },
            ]}
            value={as}
            onChange={(v) => setAs(v as 'project' | 'stack')}
          />
        )}
        <Text size="sm">
          The compose file is fetched from{' '}
          <Text span ff="monospace">
            {item.stack?.url}
          </Text>{' '}
          and saved as a new {asStack ? 'swarm stack' : 'project'}; it opens in the editor so you can review it before{' '}
          {asStack ? 'deploying' : 'starting'} it.
        </Text>
        <TextInput
          label={asStack ? 'Stack name' : 'Project name'}
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
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
          <Alert color="red" title={asStack ? 'The stack was not created' : 'The project was not created'}>
            {create.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            {asStack ? 'Create stack' : 'Create project'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
