import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { TemplateItem } from '@berth/contract';
import { truncate } from '../../../lib/format';
import { ItemLogo } from './ItemLogo';

const DESCRIPTION_MAX = 120;

export function TemplateItemCard({ item, onView }: { item: TemplateItem; onView: (item: TemplateItem) => void }) {
  return (
    <Card withBorder padding="md" style={{ background: 'var(--berth-surface)' }} role="group" aria-label={item.title}>
      <Stack gap="xs" h="100%" justify="space-between">
        <Stack gap="xs">
          <Group wrap="nowrap" gap="sm">
            <ItemLogo src={item.logo} />
            <Text fw={600} lineClamp={2}>
              {item.title}
            </Text>
          </Group>
          <Text size="sm" c="dimmed">
            {truncate(item.description, DESCRIPTION_MAX)}
          </Text>
        </Stack>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" size="xs" onClick={() => onView(item)}>
            View
          </Button>
          <Button size="xs" component={Link} to={`/apps/deploy/${item.id}`}>
            Deploy
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
