import { useState } from 'react';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { PROJECT_NAME_PATTERN, swarmApi } from '@berth/contract';
import { Can, EnvValuesNote } from '../../../components/RoleGate';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { ComposeEditor } from '../../../components/compose-editor';
import { useDeployStack, useStack } from '../api';
import { StackOutput } from './StackOutput';

const STARTER = 'version: "3.8"\nservices:\n  web:\n    image: nginx:alpine\n    deploy:\n      replicas: 2\n';

function Editor({ name: fixedName, initial }: { name: string | null; initial: string }) {
  const navigate = useNavigate();
  const deploy = useDeployStack();
  const [name, setName] = useState(fixedName ?? '');
  const [content, setContent] = useState(initial);
  /** The stack whose live output shows: this one, or a new one from its first deploy. */
  const [watching, setWatching] = useState<string | null>(fixedName);
  const submit = () => {
    if (PROJECT_NAME_PATTERN.test(name.trim())) setWatching(name.trim());
    deploy.mutate(
      { name: name.trim(), content, existing: fixedName !== null },
      {
        onSuccess: (r) => {
          notifySuccess(`Stack ${r.name} deployed.`);
          if (fixedName === null) navigate(`/swarm/stacks/${encodeURIComponent(r.name)}`);
        },
      },
    );
  };
  return (
    <Stack>
      {fixedName === null && (
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          placeholder="my-stack"
          autoComplete="off"
        />
      )}
      {deploy.error && (
        <Alert color="red" title="The stack was not deployed">
          {errorMessage(deploy.error)}
        </Alert>
      )}
      <EnvValuesNote />
      <ComposeEditor
        value={content}
        onChange={setContent}
        project={PROJECT_NAME_PATTERN.test(name.trim()) ? name.trim() : undefined}
      />
      <Can route={fixedName === null ? swarmApi.deployStack : swarmApi.redeployStack}>
        <Group>
          <Button onClick={submit} loading={deploy.isPending} disabled={!name.trim() || !content.trim()}>
            Deploy
          </Button>
        </Group>
      </Can>
      {watching && <StackOutput key={watching} name={watching} />}
    </Stack>
  );
}

/** The stack file in the YAML editor shared with compose projects; Deploy runs `docker stack deploy`. */
export function StackEditor({ name }: { name: string | null }) {
  const stack = useStack(name);
  if (name === null) return <Editor name={null} initial={STARTER} />;
  if (stack.error) return <Text c="red">{stack.error.message}</Text>;
  if (!stack.data) return <Text c="dimmed">Loading…</Text>;
  const s = stack.data;
  return (
    <Stack>
      <Text size="sm">{`${s.services} service(s), ${s.running} / ${s.desired} tasks running: ${s.serviceList.map((x) => x.name).join(', ') || 'none'}`}</Text>
      {!s.hasFile && (
        <Alert color="yellow">This stack was deployed outside Berth; write its file here to manage it.</Alert>
      )}
      {s.hasFile && s.services === 0 && <Alert color="blue">Not deployed yet: review the file, then Deploy.</Alert>}
      <Editor key={s.name} name={s.name} initial={s.content ?? ''} />
    </Stack>
  );
}
