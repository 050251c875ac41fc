import { useState } from 'react';
import { Alert, Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDeviceFloppy, IconRocket } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { PROJECT_NAME_PATTERN, PROJECT_NAME_RULE } from '@berth/contract';
import { PageHeader } from '../../../components/PageHeader';
import { errorMessage, notifyPlain } from '../../../lib/notify';
import { useSaveProject } from '../api/mutations';
import { yamlProblem } from '../yaml-check';
import { ComposeEditor } from '../../../components/compose-editor';
import { RunToCompose } from './RunToCompose';

/** What the project page reads from the navigation: bring the project up (plan first) once it opens. */
export interface DeployOnOpen {
  deploy?: boolean;
}

/**
 * New project (Project name + file) or the file of an existing one, saved alone or saved and
 * deployed (save, then the project page plans and brings it up). The YAML is checked as it
 * is typed, so its line and column show before saving; the server checks again (the Compose
 * Specification's schema, then the compose CLI's own check) before it writes anything.
 */
export function ProjectEditForm({
  name,
  isNew,
  initial,
  running = false,
}: {
  name: string;
  isNew: boolean;
  initial: string;
  /** Some of its services run now: a plain save does not change them. */
  running?: boolean;
}) {
  const navigate = useNavigate();
  const save = useSaveProject();
  const [projectName, setProjectName] = useState(isNew ? '' : name);
  const [content, setContent] = useState(initial);
  const [env, setEnv] = useState('');
  const [deploying, setDeploying] = useState(false);
  const [checked] = useDebouncedValue(content, 250);
  const problem = checked.trim() ? yamlProblem(checked) : null;
  const nameError = isNew && projectName !== '' && !PROJECT_NAME_PATTERN.test(projectName) ? PROJECT_NAME_RULE : null;
  const canSave = projectName !== '' && !nameError && content.trim() !== '' && !yamlProblem(content);

  const submit = (deploy: boolean) => {
    if (!canSave) return;
    setDeploying(deploy);
    save.mutate(
      { name: projectName, content, isNew, dotenv: env },
      {
        onSuccess: (res) => {
          // Saved, but the file needs something before it can run: say what, where it stays visible.
          if (res.warnings.length)
            notifyPlain(`Saved ${res.name}; before it can run: ${res.warnings.join(' ')}`, 'yellow', false);
          else if (running && !deploy)
            notifyPlain(
              `Saved ${res.name}. Its running services still run the previous file until the project is brought up again.`,
              'blue',
              8000,
            );
          const state: DeployOnOpen = { deploy };
          void navigate(`/projects/${encodeURIComponent(res.name)}`, { state });
        },
      },
    );
  };

  return (
    <Stack gap="sm">
      <PageHeader
        title={isNew ? 'New project' : `Edit ${name} Project`}
        actions={
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconDeviceFloppy size={16} />}
              onClick={() => submit(false)}
              disabled={!canSave}
              loading={save.isPending && !deploying}
            >
              Save
            </Button>
            <Button
              leftSection={<IconRocket size={16} />}
              onClick={() => submit(true)}
              disabled={!canSave}
              loading={save.isPending && deploying}
            >
              Save and deploy
            </Button>
          </Group>
        }
      />
      {isNew && (
        <TextInput
          label="Project name"
          placeholder="my-project"
          required
          value={projectName}
          onChange={(e) => setProjectName(e.currentTarget.value)}
          error={nameError}
          maw={420}
        />
      )}
      {isNew && <RunToCompose onConverted={setContent} />}
      {problem && (
        <Text c="red" size="sm" role="alert" data-testid="yaml-error">
          YAML error: {problem}
        </Text>
      )}
      {save.error && (
        <Alert color="red" title="Not saved" withCloseButton onClose={() => save.reset()}>
          {errorMessage(save.error)}
        </Alert>
      )}
      <ComposeEditor value={content} onChange={setContent} project={nameError ? undefined : projectName || undefined} />
      {isNew && (
        <Textarea
          label=".env (optional)"
          description="KEY=value lines saved beside the file (readable by Berth only) and used by its check, for files that need a variable before they can be saved (${PG_PASS:?}, - ${PORT}:80)."
          aria-label=".env content"
          ff="monospace"
          autosize
          minRows={2}
          maxRows={12}
          value={env}
          onChange={(e) => setEnv(e.currentTarget.value)}
        />
      )}
      <Group justify="flex-end">
        <Text size="xs" c="dimmed">
          {
            "Saved only when the file fits the Compose Specification's schema and the compose CLI accepts it (a missing build folder or env file, or a key this CLI does not know, is only a warning); the previous file stays as it was otherwise."
          }
        </Text>
      </Group>
    </Stack>
  );
}
