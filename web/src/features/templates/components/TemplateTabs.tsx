import { Anchor, Badge, Loader, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { templateQuery, templatesQuery } from '../api';
import { TemplateItemGrid } from './TemplateItemGrid';

function TemplatePanel({ id }: { id: number }) {
  const template = useQuery(templateQuery(id));
  if (template.isLoading) return <Loader aria-label="Loading" />;
  if (template.error) return <Text c="red">{template.error.message}</Text>;
  return <TemplateItemGrid items={template.data?.items ?? []} />;
}

/** Deploy from Template: a tab per template source (with its item count), each a searchable item grid. */
export function TemplateTabs() {
  const templates = useQuery(templatesQuery());
  const [active, setActive] = useState<string | null>(null);
  if (templates.isLoading) return <Loader aria-label="Loading" />;
  if (templates.error) return <Text c="red">{templates.error.message}</Text>;
  const list = templates.data ?? [];
  if (list.length === 0) {
    return (
      <Text>
        No templates available.{' '}
        <Anchor component={Link} to="/templates/new">
          Add a template
        </Anchor>
      </Text>
    );
  }
  const current = active ?? String(list[0]!.id);
  return (
    <Tabs value={current} onChange={setActive} keepMounted={false}>
      <Tabs.List mb="md">
        {list.map((t) => (
          <Tabs.Tab
            key={t.id}
            value={String(t.id)}
            rightSection={
              <Badge size="sm" variant="light">
                {t.item_count}
              </Badge>
            }
          >
            {t.title}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {list.map((t) => (
        <Tabs.Panel key={t.id} value={String(t.id)}>
          <TemplatePanel id={t.id} />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
