import { Alert, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ProjectDetail } from '@berth/contract';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        {children}
      </Text>
    </Stack>
  );
}

function NameList({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {title}
      </Text>
      <Group gap={6}>
        {items.map((n) => (
          <Badge key={n} variant="light" tt="none">
            {n}
          </Badge>
        ))}
      </Group>
    </Stack>
  );
}

/** Name, path, version, and the project-level networks and volumes; a broken file shows its error. */
export function ProjectInfoCard({ project }: { project: ProjectDetail }) {
  return (
    <Card withBorder mb="md">
      <Title order={3} size="h5" mb="sm">
        Details
      </Title>
      {project.error && (
        <Alert color="red" mb="sm" title="The compose file has a problem">
          {project.error}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }} mb="sm">
        <Field label="Name">{project.name}</Field>
        <Field label="Path">{project.path}</Field>
        <Field label="Version">{project.version ?? '-'}</Field>
      </SimpleGrid>
      <Group align="flex-start" gap="xl">
        <NameList title="Networks" items={project.networks} />
        <NameList title="Volumes" items={project.volumes} />
      </Group>
    </Card>
  );
}
