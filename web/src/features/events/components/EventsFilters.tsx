import { Group, Select, TextInput } from '@mantine/core';
import { ENGINE_EVENT_TYPES, type EngineEventType } from '@berth/contract';
import type { EventsFilter } from '../api';

const RANGES = [
  { value: '1', label: 'Last hour' },
  { value: '6', label: 'Last 6 hours' },
  { value: '24', label: 'Last 24 hours' },
  { value: '168', label: 'Last 7 days' },
];

/** Type, action, name and time range of the Events page. */
export function EventsFilters({ value, onChange }: { value: EventsFilter; onChange: (f: EventsFilter) => void }) {
  return (
    <Group align="end">
      <Select
        label="Type"
        placeholder="All types"
        clearable
        data={[...ENGINE_EVENT_TYPES]}
        value={value.type ?? null}
        onChange={(v) => onChange({ ...value, type: (v ?? undefined) as EngineEventType | undefined })}
      />
      <TextInput
        label="Action"
        placeholder="e.g. die"
        value={value.action ?? ''}
        onChange={(e) => onChange({ ...value, action: e.currentTarget.value })}
      />
      <TextInput
        label="Name"
        placeholder="Exact name"
        value={value.name ?? ''}
        onChange={(e) => onChange({ ...value, name: e.currentTarget.value })}
      />
      <Select
        label="Time range"
        data={RANGES}
        value={String(value.hours)}
        allowDeselect={false}
        onChange={(v) => onChange({ ...value, hours: Number(v ?? 24) })}
      />
    </Group>
  );
}
