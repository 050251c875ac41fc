import { useState } from 'react';
import { Button, Modal, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { EngineEventRecord } from '@berth/contract';
import { PageHeader } from '../../components/PageHeader';
import { EventsFilters, EventsTable, useLiveEvents, type EventsFilter } from '../../features/events';
import { EarlierContainers } from '../../features/log-archive';

/** A removed container's event links to the lines Berth kept of it. */
const removed = (e: EngineEventRecord) => e.type === 'container' && e.action === 'destroy' && e.name !== '';

/** /events: the engine's events, live, with filters and a time range. */
export default function EventsPage() {
  const [filter, setFilter] = useState<EventsFilter>({ hours: 24 });
  const [debounced] = useDebouncedValue(filter, 400);
  const events = useLiveEvents(debounced);
  const [kept, setKept] = useState<string | null>(null);
  return (
    <Stack>
      <PageHeader
        title="Events"
        subtitle="What happened on the engine: containers, images, volumes and networks. New events appear as they happen."
      />
      <EventsFilters value={filter} onChange={setFilter} />
      <EventsTable
        events={events.data}
        loading={events.isPending}
        nameExtra={(e) =>
          removed(e) ? (
            <Button size="compact-xs" variant="subtle" onClick={() => setKept(e.name)}>
              Kept logs
            </Button>
          ) : null
        }
      />
      <Modal opened={kept !== null} onClose={() => setKept(null)} title={`Logs of ${kept ?? ''}`} size="90%">
        {kept !== null && <EarlierContainers name={kept} always />}
      </Modal>
    </Stack>
  );
}
