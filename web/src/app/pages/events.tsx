import { useState } from 'react';
import { Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { PageHeader } from '../../components/PageHeader';
import { EventsFilters, EventsTable, useLiveEvents, type EventsFilter } from '../../features/events';

/** /events: the engine's events, live, with filters and a time range. */
export default function EventsPage() {
  const [filter, setFilter] = useState<EventsFilter>({ hours: 24 });
  const [debounced] = useDebouncedValue(filter, 400);
  const events = useLiveEvents(debounced);
  return (
    <Stack>
      <PageHeader
        title="Events"
        subtitle="What happened on the engine: containers, images, volumes and networks. New events appear as they happen."
      />
      <EventsFilters value={filter} onChange={setFilter} />
      <EventsTable events={events.data} loading={events.isPending} />
    </Stack>
  );
}
