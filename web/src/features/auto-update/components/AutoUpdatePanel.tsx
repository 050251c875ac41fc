import { useState, type ReactNode } from 'react';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Group, NumberInput, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import type { AppAutoUpdate, AutoUpdateMode, AutoUpdateOverride, VersionPolicy } from '@berth/contract';
import { Can, EditableBy } from '../../../components/RoleGate';
import type { RouteAccess } from '../../../lib/session';
import { Section } from '../../../components/Section';
import { formatDate } from '../../../lib/format';
import { errorMessage, notifyInfo, notifySuccess } from '../../../lib/notify';
import { ResultBadge } from './AutoUpdateRuns';
import { ScheduleField } from './ScheduleField';
import { VERSION_POLICY_OPTIONS, versionPolicyShort } from '../model';

const DEFAULT = 'default';
const enabledValue = (o: AutoUpdateOverride) => (o.enabled === null ? DEFAULT : o.enabled ? 'on' : 'off');

function Effective({ data }: { data: AppAutoUpdate }) {
  const e = data.effective;
  const labels = Object.entries(data.labels);
  return (
    <Text size="sm" c="dimmed" data-testid="auto-update-effective">
      {`In effect: ${e.enabled ? 'on' : 'off'}, ${e.mode === 'update' ? 'update' : 'notify only'}, ${versionPolicyShort(e.version_policy)}, schedule ${e.schedule}, settle ${e.settle_seconds} s.`}
      {labels.length > 0 && ` Labels set: ${labels.map(([k, v]) => `${k}=${v}`).join(', ')}.`}
    </Text>
  );
}

/**
 * An override (empty fields follow Settings → Auto-update), what is in effect and the last result:
 * the app's and the compose project's auto-update panels, each with its own query and save.
 * `children` go below the effective policy (a project lists its services there).
 */
export function AutoUpdatePanel<T extends AppAutoUpdate>(props: {
  name: string;
  query: UseQueryResult<T>;
  save: UseMutationResult<T, Error, AutoUpdateOverride>;
  /** The save route: a role that may not call it reads the panel without a Save button. */
  route: RouteAccess;
  children?: (data: T) => ReactNode;
}) {
  const { query } = props;
  if (query.error) return <Alert color="red">{errorMessage(query.error)}</Alert>;
  if (!query.data) return null;
  return (
    <EditableBy route={props.route}>
      {/* Keyed by name: moving from one app's page to another's keeps this element, and the draft must not carry over. */}
      <OverrideForm key={props.name} {...props} data={query.data} />
    </EditableBy>
  );
}

function OverrideForm<T extends AppAutoUpdate>({
  name,
  data,
  save,
  route,
  children,
}: {
  name: string;
  data: T;
  save: UseMutationResult<T, Error, AutoUpdateOverride>;
  route: RouteAccess;
  children?: (data: T) => ReactNode;
}) {
  const [draft, setDraft] = useState<AutoUpdateOverride>(data.override);
  const set = (patch: Partial<AutoUpdateOverride>) => setDraft({ ...draft, ...patch });
  const last = data.last;

  return (
    <Section title="Auto-update">
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }}>
          <Select
            label="Auto-update"
            allowDeselect={false}
            value={enabledValue(draft)}
            onChange={(v) => set({ enabled: v === DEFAULT ? null : v === 'on' })}
            data={[
              { value: DEFAULT, label: 'As in Settings' },
              { value: 'on', label: 'On' },
              { value: 'off', label: 'Off' },
            ]}
          />
          <Select
            label="Mode"
            allowDeselect={false}
            value={draft.mode ?? DEFAULT}
            onChange={(v) => set({ mode: v === DEFAULT ? null : (v as AutoUpdateMode) })}
            data={[
              { value: DEFAULT, label: 'As in Settings' },
              { value: 'notify', label: 'Notify only' },
              { value: 'update', label: 'Update' },
            ]}
          />
          <Select
            label="Versions"
            allowDeselect={false}
            value={draft.version_policy ?? DEFAULT}
            onChange={(v) => set({ version_policy: v === DEFAULT ? null : (v as VersionPolicy) })}
            data={[{ value: DEFAULT, label: 'As in Settings' }, ...VERSION_POLICY_OPTIONS]}
          />
          <ScheduleField
            placeholder="As in Settings"
            value={draft.schedule ?? ''}
            onChange={(v) => set({ schedule: v.trim() ? v : null })}
          />
          <NumberInput
            label="Settle time (s)"
            placeholder="As in Settings"
            min={1}
            max={3600}
            value={draft.settle_seconds ?? ''}
            onChange={(v) => set({ settle_seconds: typeof v === 'number' ? v : null })}
          />
        </SimpleGrid>
        <Effective data={data} />
        {children?.(data)}
        {last && (
          <Group gap="xs">
            <Text size="sm">Last result ({formatDate(last.at)}):</Text>
            <ResultBadge item={last} />
            {last.reason && (
              <Text size="sm" c="dimmed">
                {last.reason}
              </Text>
            )}
          </Group>
        )}
        {save.error && <Alert color="red">{errorMessage(save.error)}</Alert>}
        <Can route={route}>
          <Group>
            <Button
              variant="default"
              loading={save.isPending}
              onClick={() =>
                save.mutate(draft, {
                  onSuccess: (d) =>
                    d.effective.enabled
                      ? notifySuccess(`Auto-update of ${name} saved.`)
                      : notifyInfo(`Auto-update is off for ${name}: nothing will run.`, `Auto-update of ${name} saved`),
                })
              }
            >
              Save auto-update
            </Button>
          </Group>
        </Can>
      </Stack>
    </Section>
  );
}
