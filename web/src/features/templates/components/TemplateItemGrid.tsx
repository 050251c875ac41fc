import { SimpleGrid, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { TemplateItem } from '@berth/contract';
import { filterItems } from '../item-filter';
import { TemplateItemCard } from './TemplateItemCard';
import { StackDeployDialog } from './StackDeployDialog';
import { TemplateItemDialog } from './TemplateItemDialog';

/** A searchable grid of catalogue items with the detail dialog (template details and deploy-from-template). */
export function TemplateItemGrid({ items }: { items: readonly TemplateItem[] }) {
  const [search, setSearch] = useState('');
  const [viewing, setViewing] = useState<TemplateItem | null>(null);
  const [deployingStack, setDeployingStack] = useState<TemplateItem | null>(null);
  const deployStack = (item: TemplateItem) => {
    setViewing(null);
    setDeployingStack(item);
  };
  const shown = useMemo(() => filterItems(items, search), [items, search]);
  return (
    <>
      <TextInput
        aria-label="Search items"
        placeholder="Search by title"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        mb="md"
        maw={420}
      />
      {shown.length === 0 ? (
        <Text c="dimmed">{items.length === 0 ? 'This template has no items.' : 'No items match the search.'}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }} spacing="md">
          {shown.map((item) => (
            <TemplateItemCard key={item.id} item={item} onView={setViewing} onDeployStack={deployStack} />
          ))}
        </SimpleGrid>
      )}
      <TemplateItemDialog item={viewing} onClose={() => setViewing(null)} onDeployStack={deployStack} />
      <StackDeployDialog item={deployingStack} onClose={() => setDeployingStack(null)} />
    </>
  );
}
