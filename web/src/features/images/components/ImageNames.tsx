import { ActionIcon, Badge, Code, Group, List, Stack, Text, Tooltip } from '@mantine/core';
import { IconTagOff } from '@tabler/icons-react';
import type { ImageSummary } from '@berth/contract';
import { deleteImageText, imageTag } from '../model';

type Named = Pick<ImageSummary, 'RepoTags' | 'RepoDigests' | 'Id' | 'inUse' | 'usedTags'>;

/**
 * The Tag cell: the tag chosen by use (the one a container uses, else the newest), a "+N" chip
 * naming the others, and "Unused" when no container uses it.
 */
export function TagCell({ image }: { image: Named }) {
  const shown = imageTag(image);
  const others = image.RepoTags.filter((t) => t !== shown);
  return (
    <Group gap="xs" wrap="wrap">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {shown}
      </Text>
      {others.length > 0 && (
        <Tooltip label={others.join(', ')} multiline maw={360}>
          <Badge size="sm" variant="outline" style={{ flexShrink: 0 }} aria-label={`Also tagged ${others.join(', ')}`}>
            +{others.length}
          </Badge>
        </Tooltip>
      )}
      {image.inUse === 0 && (
        <Badge size="sm" variant="light" color="gray" style={{ flexShrink: 0, overflow: 'visible' }}>
          Unused
        </Badge>
      )}
    </Group>
  );
}

/** A list of names (tags or digests), each with an optional untag button. */
export function NameList({
  names,
  onUntag,
  untagging,
}: {
  names: readonly string[];
  onUntag?: (tag: string) => void;
  untagging?: string | null;
}) {
  if (names.length === 0) return <>-</>;
  return (
    <Stack gap={4}>
      {names.map((n) => (
        <Group key={n} gap={4} wrap="nowrap" align="flex-start">
          <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>{n}</Code>
          {onUntag && (
            <Tooltip label={`Remove tag ${n}`}>
              <ActionIcon
                size="sm"
                variant="subtle"
                color="red"
                aria-label={`Remove tag ${n}`}
                loading={untagging === n}
                onClick={() => onUntag(n)}
              >
                <IconTagOff size={14} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      ))}
    </Stack>
  );
}

/** The delete confirmation's body: what goes, tag by tag. */
export function DeleteImageBody({ image }: { image: Named }) {
  return (
    <Stack gap="xs">
      <Text size="sm">{deleteImageText(image)}</Text>
      {image.RepoTags.length > 0 && (
        <List size="sm" data-testid="delete-image-tags">
          {image.RepoTags.map((t) => (
            <List.Item key={t} style={{ overflowWrap: 'anywhere' }}>
              {t}
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
