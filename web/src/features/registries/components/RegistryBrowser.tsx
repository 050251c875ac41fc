import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Group,
  Loader,
  NavLink,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconDownload, IconRocket } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { deployApi, type Registry } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { errorMessage } from '../../../lib/notify';
import { repositoriesQuery, tagsQuery } from '../api';

function Tags({
  registry,
  repo,
  onPull,
  onDeploy,
}: {
  registry: Registry;
  repo: string;
  onPull: (image: string) => void;
  onDeploy: (image: string) => void;
}) {
  const tags = useInfiniteQuery(tagsQuery(registry.id, repo));
  const list = tags.data?.pages.flatMap((p) => p.tags) ?? [];
  const image = tags.data?.pages[0]?.image ?? `${registry.server_address}/${repo}`;
  return (
    <Stack gap="xs" aria-label={`Tags of ${repo}`}>
      <Title order={4} ff="monospace">
        {image}
      </Title>
      {tags.isPending && <Loader size="sm" aria-label="Loading tags" />}
      {tags.error && <Alert color="red">{errorMessage(tags.error)}</Alert>}
      {tags.data && list.length === 0 && <Text size="sm">This repository has no tags.</Text>}
      {list.map((tag) => (
        <Group key={tag} justify="space-between" wrap="nowrap">
          <Text ff="monospace" size="sm">
            {tag}
          </Text>
          <Group gap={4} wrap="nowrap">
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconDownload size={14} />}
              onClick={() => onPull(`${image}:${tag}`)}
              aria-label={`Pull ${repo}:${tag}`}
            >
              Pull
            </Button>
            <Can route={deployApi.deploy}>
              <Button
                size="compact-sm"
                variant="default"
                leftSection={<IconRocket size={14} />}
                onClick={() => onDeploy(`${image}:${tag}`)}
                aria-label={`Deploy ${repo}:${tag}`}
              >
                Deploy
              </Button>
            </Can>
          </Group>
        </Group>
      ))}
      {tags.hasNextPage && (
        <Button variant="subtle" onClick={() => void tags.fetchNextPage()} loading={tags.isFetchingNextPage}>
          More tags
        </Button>
      )}
    </Stack>
  );
}

/** A registry's repositories (or a typed name when it refuses the catalog) and each one's tags, with Pull and Deploy. */
export function RegistryBrowser({
  registry,
  onPull,
  onDeploy,
}: {
  registry: Registry;
  onPull: (image: string) => void;
  onDeploy: (image: string) => void;
}) {
  const repos = useInfiniteQuery(repositoriesQuery(registry.id));
  const [repo, setRepo] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const first = repos.data?.pages[0];
  const list = repos.data?.pages.flatMap((p) => p.repositories) ?? [];
  const open = (e: FormEvent) => {
    e.preventDefault();
    if (typed.trim()) setRepo(typed.trim().replace(/^\/+|\/+$/g, ''));
  };

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Title order={4}>Repositories</Title>
          {repos.isPending && <Loader size="sm" aria-label="Loading repositories" />}
          {repos.error && <Alert color="red">{errorMessage(repos.error)}</Alert>}
          {first && !first.catalog_allowed && (
            <Alert color="yellow" role="status">
              {first.detail}
            </Alert>
          )}
          <form onSubmit={open} aria-label="Open a repository">
            <Group align="flex-end" wrap="nowrap">
              <TextInput
                label="Repository"
                placeholder="org/app"
                value={typed}
                onChange={(e) => setTyped(e.currentTarget.value)}
                style={{ flex: 1 }}
              />
              <Button type="submit" variant="default" disabled={!typed.trim()}>
                List tags
              </Button>
            </Group>
          </form>
          <ScrollArea.Autosize mah={480} type="auto">
            {list.map((name) => (
              <NavLink key={name} label={name} active={name === repo} onClick={() => setRepo(name)} ff="monospace" />
            ))}
          </ScrollArea.Autosize>
          {repos.hasNextPage && (
            <Button variant="subtle" onClick={() => void repos.fetchNextPage()} loading={repos.isFetchingNextPage}>
              More repositories
            </Button>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="sm">
        {repo ? (
          <Tags key={repo} registry={registry} repo={repo} onPull={onPull} onDeploy={onDeploy} />
        ) : (
          <Text size="sm" c="dimmed">
            Choose a repository to see its tags.
          </Text>
        )}
      </Paper>
    </SimpleGrid>
  );
}
