import { ActionIcon, Button, Checkbox, Group, MultiSelect, Select, TextInput, Tooltip } from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconDownload,
  IconPlayerPause,
  IconPlayerPlay,
  IconTrash,
} from '@tabler/icons-react';
import { LEVELS, type Level } from './model';

export type RangePreset = 'live' | '5m' | '1h' | '24h' | 'custom';

export interface LogSettings {
  q: string;
  regex: boolean;
  caseSensitive: boolean;
  matchingOnly: boolean;
  range: RangePreset;
  since: string;
  until: string;
  tail: string;
  timestamps: boolean;
  pretty: boolean;
  wrap: boolean;
  minLevel: Level | 'all';
  keep: string;
  services: string[];
}

export const DEFAULT_SETTINGS: LogSettings = {
  q: '',
  regex: false,
  caseSensitive: false,
  matchingOnly: false,
  range: 'live',
  since: '',
  until: '',
  tail: '500',
  timestamps: false,
  pretty: false,
  wrap: false,
  minLevel: 'all',
  keep: '10000',
  services: [],
};

interface Props {
  s: LogSettings;
  set: (patch: Partial<LogSettings>) => void;
  /** An error of the search regex, shown under the box. */
  searchError: string | null;
  hits: number;
  onNext: () => void;
  onPrev: () => void;
  paused: boolean;
  onPause: () => void;
  /** Null: no download for this log. */
  downloadHref: string | null;
  onClear: () => void;
  /** Project logs: the services to filter by. */
  serviceChoices?: string[];
}

/** Search, range, display and stream controls of the log view. */
export function LogToolbar({
  s,
  set,
  searchError,
  hits,
  onNext,
  onPrev,
  paused,
  onPause,
  downloadHref,
  onClear,
  serviceChoices,
}: Props) {
  return (
    <>
      <Group gap="xs" align="flex-start" mb="xs" wrap="wrap">
        <TextInput
          size="xs"
          w={240}
          aria-label="Search the log"
          placeholder={s.regex ? 'Regular expression' : 'Search'}
          value={s.q}
          error={searchError}
          onChange={(e) => set({ q: e.currentTarget.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter') (e.shiftKey ? onPrev : onNext)();
          }}
        />
        <Checkbox
          size="xs"
          mt={6}
          label="Regex"
          checked={s.regex}
          onChange={(e) => set({ regex: e.currentTarget.checked })}
        />
        <Checkbox
          size="xs"
          mt={6}
          label="Match case"
          checked={s.caseSensitive}
          onChange={(e) => set({ caseSensitive: e.currentTarget.checked })}
        />
        <Checkbox
          size="xs"
          mt={6}
          label="Matching lines only"
          checked={s.matchingOnly}
          onChange={(e) => set({ matchingOnly: e.currentTarget.checked })}
        />
        <Tooltip label="Previous match">
          <ActionIcon variant="default" aria-label="Previous match" onClick={onPrev} disabled={hits === 0}>
            <IconArrowUp size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Next match">
          <ActionIcon variant="default" aria-label="Next match" onClick={onNext} disabled={hits === 0}>
            <IconArrowDown size={16} />
          </ActionIcon>
        </Tooltip>
        {s.q && !searchError && <span style={{ fontSize: 12, marginTop: 6 }}>{hits} matches</span>}
      </Group>
      <Group gap="xs" align="flex-end" mb="xs" wrap="wrap">
        <Select
          size="xs"
          w={130}
          label="Time range"
          value={s.range}
          allowDeselect={false}
          data={[
            { value: 'live', label: 'Live' },
            { value: '5m', label: 'Last 5 m' },
            { value: '1h', label: 'Last 1 h' },
            { value: '24h', label: 'Last 24 h' },
            { value: 'custom', label: 'Custom' },
          ]}
          onChange={(v) => set({ range: (v ?? 'live') as RangePreset })}
        />
        {s.range === 'custom' && (
          <>
            <TextInput
              size="xs"
              w={200}
              label="Since"
              placeholder="2024-05-01T12:00:00Z or 2h"
              value={s.since}
              onChange={(e) => set({ since: e.currentTarget.value })}
            />
            <TextInput
              size="xs"
              w={200}
              label="Until"
              placeholder="2024-05-01T13:00:00Z or 1h"
              value={s.until}
              onChange={(e) => set({ until: e.currentTarget.value })}
            />
          </>
        )}
        <Select
          size="xs"
          w={90}
          label="Tail"
          value={s.tail}
          allowDeselect={false}
          data={['100', '500', '1000', '5000', 'all']}
          onChange={(v) => set({ tail: v ?? '500' })}
        />
        <Select
          size="xs"
          w={100}
          label="Keep lines"
          value={s.keep}
          allowDeselect={false}
          data={['1000', '5000', '10000', '50000']}
          onChange={(v) => set({ keep: v ?? '10000' })}
        />
        <Select
          size="xs"
          w={110}
          label="Level"
          value={s.minLevel}
          allowDeselect={false}
          data={[{ value: 'all', label: 'All' }, ...LEVELS.map((l) => ({ value: l, label: `${l} and up` }))]}
          onChange={(v) => set({ minLevel: (v ?? 'all') as LogSettings['minLevel'] })}
        />
        {serviceChoices && (
          <MultiSelect
            size="xs"
            w={220}
            label="Services"
            placeholder="All services"
            data={serviceChoices}
            value={s.services}
            onChange={(v) => set({ services: v })}
            clearable
          />
        )}
        <Checkbox
          size="xs"
          mb={6}
          label="Timestamps"
          checked={s.timestamps}
          onChange={(e) => set({ timestamps: e.currentTarget.checked })}
        />
        <Checkbox
          size="xs"
          mb={6}
          label="Wrap"
          checked={s.wrap}
          onChange={(e) => set({ wrap: e.currentTarget.checked })}
        />
        <Checkbox
          size="xs"
          mb={6}
          label="Pretty JSON"
          checked={s.pretty}
          onChange={(e) => set({ pretty: e.currentTarget.checked })}
        />
        <Button
          size="xs"
          variant="default"
          leftSection={paused ? <IconPlayerPlay size={14} /> : <IconPlayerPause size={14} />}
          onClick={onPause}
        >
          {paused ? 'Resume' : 'Pause'}
        </Button>
        {downloadHref !== null && (
          <Button
            size="xs"
            variant="default"
            component="a"
            href={downloadHref}
            download
            leftSection={<IconDownload size={14} />}
          >
            Download
          </Button>
        )}
        <Button size="xs" variant="default" leftSection={<IconTrash size={14} />} onClick={onClear}>
          Clear
        </Button>
      </Group>
    </>
  );
}
