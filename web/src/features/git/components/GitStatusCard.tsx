import { Alert, Badge, Button, Card, Code, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconGitBranch } from '@tabler/icons-react';
import { useState } from 'react';
import type { ProjectPlan } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { GIT_ROUTES, useGitAction, useGitStatus, type GitKind } from '../api';
import { GitSourceSettings } from './GitSourceSettings';

const short = (sha: string | null) => (sha ? sha.slice(0, 12) : '—');

function PlanList({ plan }: { plan: ProjectPlan }) {
  return (
    <List size="sm" data-testid="git-plan">
      {plan.services.map((s) => (
        <List.Item key={s.name}>
          {s.name}: {s.action}
          {s.image ? ` (${s.image})` : ''}
        </List.Item>
      ))}
    </List>
  );
}

/**
 * A git-backed project's (or stack's) source: commits, behind/ahead, local edits, and Pull /
 * Deploy / Discard / Settings. Nothing for one not from git.
 */
export function GitStatusCard({ name, kind = 'project' }: { name: string; kind?: GitKind }) {
  const status = useGitStatus(name, kind);
  const action = useGitAction(name, kind);
  const [editing, setEditing] = useState(false);
  const routes = GIT_ROUTES[kind];
  const git = status.data;
  if (!git) return null;
  const plan = action.data?.plan ?? null;
  return (
    <Card withBorder mb="sm" data-testid="git-status">
      {editing && <GitSourceSettings name={name} kind={kind} git={git} onClose={() => setEditing(false)} />}
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <IconGitBranch size={18} />
          <Title order={3} size="h5">
            From git
          </Title>
          {git.behind !== null && git.behind > 0 && (
            <Badge color="yellow" variant="light">
              behind by {git.behind}
            </Badge>
          )}
          {git.behind === 0 && (
            <Badge color="green" variant="light">
              up to date
            </Badge>
          )}
          {git.ahead !== null && git.ahead > 0 && <Badge variant="light">ahead by {git.ahead}</Badge>}
          {git.local_edits && (
            <Badge color="orange" variant="light">
              local edits
            </Badge>
          )}
        </Group>
        <Can route={routes.deploy}>
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => setEditing(true)}>
              Settings
            </Button>
            <Button size="xs" variant="default" loading={action.isPending} onClick={() => action.mutate('pull')}>
              Pull
            </Button>
            <Button size="xs" loading={action.isPending} onClick={() => action.mutate('deploy')}>
              Deploy
            </Button>
          </Group>
        </Can>
      </Group>
      <Stack gap={4}>
        <Text size="sm">
          <Code>{git.remote}</Code> at <Code>{git.ref}</Code>, file <Code>{git.path}</Code>
        </Text>
        <Text size="sm">
          Checked out <Code data-testid="git-head">{short(git.head_commit)}</Code>, deployed{' '}
          <Code data-testid="git-deployed">{short(git.deployed_commit)}</Code>, latest on the remote{' '}
          <Code>{short(git.latest_commit)}</Code>
        </Text>
        <Text size="sm" c="dimmed">
          Sync: {git.sync.policy === 'poll' ? `every ${git.sync.interval_minutes} min` : git.sync.policy}
          {git.webhook_url ? ` · webhook ${location.origin}${git.webhook_url}` : ''}
        </Text>
        {git.last_error && (
          <Alert color="red" title="The last fetch failed">
            {git.last_error}
          </Alert>
        )}
        {git.local_edits && (
          <Alert color="orange" title="Local edits">
            <Text size="sm">
              {git.edited_files.join(', ')} changed in Berth. Berth does not push edits back to the repository; a Pull
              or Deploy is refused until they are discarded.
            </Text>
            <Can route={routes.discard}>
              <Button size="xs" mt="xs" color="orange" variant="light" onClick={() => action.mutate('discard')}>
                Discard local edits
              </Button>
            </Can>
          </Alert>
        )}
        {plan && (
          <>
            <Text size="sm" fw={500} mt="xs">
              Plan of the {action.data?.action === 'deploy' ? 'deploy' : 'pulled commit'}
            </Text>
            <PlanList plan={plan} />
          </>
        )}
      </Stack>
    </Card>
  );
}
