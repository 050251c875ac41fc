export { AppEventsCard } from './components/AppEventsCard';
export { EventsFilters } from './components/EventsFilters';
export { EventsTable } from './components/EventsTable';
export { useLiveEvents, type EventsFilter } from './api';
