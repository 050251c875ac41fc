import { Anchor, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/PageHeader';
import { templateQuery } from '../api';
import { TemplateItemGrid } from './TemplateItemGrid';

/** One template source: its title and URL, then its items as cards. */
export function TemplateDetails({ id }: { id: number }) {
  const template = useQuery(templateQuery(id));
  if (template.isLoading) return <Loader aria-label="Loading" />;
  if (template.error) return <Text c="red">{template.error.message}</Text>;
  if (!template.data) return null;
  const t = template.data;
  return (
    <Stack gap={0}>
      <PageHeader
        title={t.title}
        subtitle={
          <Anchor href={t.url} target="_blank" rel="noopener noreferrer" size="sm">
            {t.url}
          </Anchor>
        }
      />
      <TemplateItemGrid items={t.items} />
    </Stack>
  );
}
