import { Section } from '../../../components/Section';
import { useLiveEvents } from '../api';
import { EventsTable } from './EventsTable';

/** The app page's card: this container's events of the last 7 days, live. */
export function AppEventsCard({ name }: { name: string }) {
  const events = useLiveEvents({ type: 'container', name, hours: 168 });
  return (
    <Section title="Events">
      <EventsTable events={events.data} loading={events.isPending} compact />
    </Section>
  );
}
