import { Badge, Group, Text } from '@mantine/core';
import type { App } from '@berth/contract';

/** The image reference with "1.5.0 available" beside it when its registry has a newer version tag. */
export function ImageWithNewer({ app, truncate = false }: { app: App; truncate?: boolean }) {
  const image = (
    <Text
      span
      size="sm"
      truncate={truncate ? 'end' : undefined}
      display={truncate ? 'block' : undefined}
      title={app.Config.Image}
      data-testid="app-image"
      style={{ minWidth: 0 }}
    >
      {app.Config.Image}
    </Text>
  );
  if (!app.newerVersion) return image;
  return (
    <Group gap={6} wrap="nowrap">
      {image}
      <Badge
        size="sm"
        variant="light"
        color="orange"
        tt="none"
        style={{ flexShrink: 0 }}
        title="A newer version tag of this image is in its registry"
        data-testid="newer-version"
      >
        {`${app.newerVersion} available`}
      </Badge>
    </Group>
  );
}
