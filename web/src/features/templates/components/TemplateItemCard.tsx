import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { TemplateItem } from '@berth/contract';
import { truncate } from '../../../lib/format';
import { DeployItemButton } from './DeployItemButton';
import { ItemLogo } from './ItemLogo';

const DESCRIPTION_MAX = 120;

export function TemplateItemCard({
  item,
  onView,
  onDeployStack,
}: {
  item: TemplateItem;
  onView: (item: TemplateItem) => void;
  onDeployStack: (item: TemplateItem) => void;
}) {
  return (
    <Card withBorder padding="md" style={{ background: 'var(--berth-surface)' }} role="group" aria-label={item.title}>
      <Stack gap="xs" h="100%" justify="space-between">
        <Stack gap="xs">
          <Group wrap="nowrap" gap="sm">
            <ItemLogo src={item.logo} />
            <Text fw={600} lineClamp={2}>
              {item.title}
            </Text>
            {item.stack && (
              <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
                stack
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {truncate(item.description, DESCRIPTION_MAX)}
          </Text>
        </Stack>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" size="xs" onClick={() => onView(item)}>
            View
          </Button>
          <DeployItemButton size="xs" item={item} onDeployStack={onDeployStack} />
        </Group>
      </Stack>
    </Card>
  );
}
