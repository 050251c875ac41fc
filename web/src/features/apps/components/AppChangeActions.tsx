import { useState } from 'react';
import { Button, Modal, Stack, Text, TextInput, Textarea, Group } from '@mantine/core';
import { IconCamera, IconCursorText } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { appChangesApi, type App } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { useCommitApp, useRenameApp } from '../api/changes';
import { projectOf } from '../model';

function RenameDialog({ app, onClose }: { app: App; onClose: () => void }) {
  const [newName, setNewName] = useState(app.name);
  const rename = useRenameApp();
  const navigate = useNavigate();
  const submit = () =>
    rename.mutate(
      { name: app.name, newName: newName.trim() },
      {
        onSuccess: (renamed) => {
          onClose();
          navigate(`/apps/${encodeURIComponent(renamed.name)}/info`, { replace: true });
        },
      },
    );
  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>Rename {app.name}</Text>} centered>
      <Stack>
        <Text size="sm">The container keeps running and keeps its id, its data and its settings.</Text>
        <TextInput
          label="New name"
          value={newName}
          onChange={(e) => setNewName(e.currentTarget.value)}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={rename.isPending}>
            Cancel
          </Button>
          <Button onClick={submit} loading={rename.isPending} disabled={!newName.trim() || newName.trim() === app.name}>
            Rename
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function CommitDialog({ app, onClose }: { app: App; onClose: () => void }) {
  const [repo, setRepo] = useState(app.name.toLowerCase());
  const [tag, setTag] = useState('snapshot');
  const [comment, setComment] = useState('');
  const commit = useCommitApp(app.name);
  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>Commit {app.name} to an image</Text>} centered>
      <Stack>
        <Text size="sm">
          An image of the container as it is now, its changed files included: keep it before an edit or an update.
        </Text>
        <TextInput label="Repository" value={repo} onChange={(e) => setRepo(e.currentTarget.value)} />
        <TextInput label="Tag" value={tag} onChange={(e) => setTag(e.currentTarget.value)} />
        <Textarea label="Comment" value={comment} onChange={(e) => setComment(e.currentTarget.value)} autosize />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={commit.isPending}>
            Cancel
          </Button>
          <Button
            onClick={() => commit.mutate({ repo: repo.trim(), tag: tag.trim(), comment }, { onSuccess: onClose })}
            loading={commit.isPending}
            disabled={!repo.trim() || !tag.trim()}
          >
            Commit
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Rename (not for a compose service: its project names it) and Commit, for the app page's header. */
export function AppChangeActions({ app }: { app: App | undefined }) {
  const [open, setOpen] = useState<'rename' | 'commit' | null>(null);
  if (!app) return null;
  const project = projectOf(app);
  return (
    <>
      <Can route={appChangesApi.rename}>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconCursorText size={16} />}
          disabled={Boolean(project)}
          title={project ? `Compose names this container: rename the service in project ${project}.` : undefined}
          onClick={() => setOpen('rename')}
        >
          Rename
        </Button>
      </Can>
      <Can route={appChangesApi.commit}>
        <Button variant="default" size="xs" leftSection={<IconCamera size={16} />} onClick={() => setOpen('commit')}>
          Commit
        </Button>
      </Can>
      {open === 'rename' && <RenameDialog app={app} onClose={() => setOpen(null)} />}
      {open === 'commit' && <CommitDialog app={app} onClose={() => setOpen(null)} />}
    </>
  );
}
