import { useState } from 'react';
import { Alert, Button, Group, NumberInput, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { autoHealApi, type AutoHealOverride, type AutoHealPolicy, type TargetAutoHeal } from '@berth/contract';
import { Can, EditableBy } from '../../../components/RoleGate';
import { Section } from '../../../components/Section';
import { formatDate } from '../../../lib/format';
import { errorMessage, notifyError, notifySuccess } from '../../../lib/notify';
import {
  useAutoHealDefault,
  useResetTargetAutoHeal,
  useSaveAutoHealDefault,
  useSaveTargetAutoHeal,
  useTargetAutoHeal,
} from '../api';

const DEFAULT = 'default';
const num = (v: string | number) => (v === '' ? null : Number(v));

function Fields<T extends AutoHealOverride | AutoHealPolicy>({
  draft,
  set,
  placeholder,
}: {
  draft: T;
  set: (patch: Partial<T>) => void;
  placeholder?: AutoHealPolicy;
}) {
  const field = (key: 'checks' | 'max_restarts' | 'backoff_seconds', label: string, description: string) => (
    <NumberInput
      label={label}
      description={description}
      min={key === 'backoff_seconds' ? 0 : 1}
      value={draft[key] ?? ''}
      placeholder={placeholder ? String(placeholder[key]) : undefined}
      onChange={(v) => set({ [key]: placeholder ? num(v) : Number(v) } as Partial<T>)}
    />
  );
  return (
    <>
      {field('checks', 'Failed checks', 'Restart after this many failed health checks in a row.')}
      {field('max_restarts', 'Restarts an hour', 'Then stop trying and notify once.')}
      {field('backoff_seconds', 'Back-off (s)', 'Wait before a second restart, doubled each time.')}
    </>
  );
}

/** Settings → Auto-update: the global auto-heal default (off unless turned on). */
export function AutoHealDefaultCard() {
  const query = useAutoHealDefault();
  if (query.error) return <Alert color="red">{errorMessage(query.error)}</Alert>;
  if (!query.data) return null;
  return (
    <EditableBy route={autoHealApi.put}>
      <DefaultForm data={query.data} />
    </EditableBy>
  );
}

function DefaultForm({ data }: { data: AutoHealPolicy }) {
  const save = useSaveAutoHealDefault();
  const [draft, setDraft] = useState<AutoHealPolicy>(data);
  return (
    <Section title="Auto-heal">
      <Stack>
        <Text size="sm" c="dimmed">
          Restart containers whose health check keeps failing. Apps and compose services can override this on their
          pages; Berth never restarts itself.
        </Text>
        <Switch
          label="Auto-heal every app and service by default"
          checked={draft.enabled}
          onChange={(e) => setDraft({ ...draft, enabled: e.currentTarget.checked })}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Fields draft={draft} set={(p) => setDraft({ ...draft, ...p })} />
        </SimpleGrid>
        <Can route={autoHealApi.put}>
          <Group justify="flex-end">
            <Button
              loading={save.isPending}
              onClick={() =>
                save.mutate(draft, {
                  onSuccess: () => notifySuccess('Auto-heal default saved'),
                  onError: (err) => notifyError(err),
                })
              }
            >
              Save auto-heal
            </Button>
          </Group>
        </Can>
      </Stack>
    </Section>
  );
}

/** An app's auto-heal, or with `service` a compose service's (`name` is then its project). */
export function AutoHealPanel({ name, service }: { name: string; service?: string }) {
  const query = useTargetAutoHeal(name, service);
  if (query.error) return <Alert color="red">{errorMessage(query.error)}</Alert>;
  if (!query.data) return null;
  return (
    <EditableBy route={service ? autoHealApi.putService : autoHealApi.putApp}>
      <OverrideForm key={`${name}/${service ?? ''}`} name={name} service={service} data={query.data} />
    </EditableBy>
  );
}

function OverrideForm({ name, service, data }: { name: string; service?: string; data: TargetAutoHeal }) {
  const save = useSaveTargetAutoHeal(name, service);
  const [draft, setDraft] = useState<AutoHealOverride>(data.override);
  const e = data.effective;
  const s = data.state;
  const route = service ? autoHealApi.putService : autoHealApi.putApp;
  return (
    <Section title={service ? `Auto-heal of ${service}` : 'Auto-heal'}>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          <Select
            label="Auto-heal"
            allowDeselect={false}
            value={draft.enabled === null ? DEFAULT : draft.enabled ? 'on' : 'off'}
            onChange={(v) => setDraft({ ...draft, enabled: v === DEFAULT ? null : v === 'on' })}
            data={[
              { value: DEFAULT, label: 'As in Settings' },
              { value: 'on', label: 'On' },
              { value: 'off', label: 'Off' },
            ]}
          />
          <Fields draft={draft} set={(p) => setDraft({ ...draft, ...p })} placeholder={e} />
        </SimpleGrid>
        <Text size="sm" c="dimmed" data-testid="auto-heal-effective">
          {`In effect: ${e.enabled ? 'on' : 'off'}, restart after ${e.checks} failed checks, at most ${e.max_restarts} restarts an hour, back-off ${e.backoff_seconds} s.`}
          {` Restarts in the last hour: ${s.restarts_last_hour}${s.last_restart_at ? ` (last ${formatDate(s.last_restart_at)})` : ''}.`}
        </Text>
        {s.gave_up_at && <GaveUp name={name} service={service} at={s.gave_up_at} />}
        <Can route={route}>
          <Group justify="flex-end">
            <Button
              loading={save.isPending}
              onClick={() =>
                save.mutate(draft, {
                  onSuccess: () => notifySuccess('Auto-heal saved'),
                  onError: (err) => notifyError(err),
                })
              }
            >
              Save auto-heal
            </Button>
          </Group>
        </Can>
      </Stack>
    </Section>
  );
}

/** "Gave up at …", and a reset for whoever may set the auto-heal. */
function GaveUp({ name, service, at }: { name: string; service?: string; at: string }) {
  const reset = useResetTargetAutoHeal(name, service);
  return (
    <Alert color="orange" data-testid="auto-heal-gave-up">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">
          {`Gave up at ${formatDate(at)} after too many restarts; it stays given up until the container is healthy again.`}
        </Text>
        <Can route={service ? autoHealApi.resetService : autoHealApi.resetApp}>
          <Button
            size="xs"
            variant="light"
            loading={reset.isPending}
            onClick={() =>
              reset.mutate(undefined, {
                onSuccess: () => notifySuccess('Auto-heal reset: it tries again'),
                onError: (err) => notifyError(err),
              })
            }
          >
            Reset
          </Button>
        </Can>
      </Group>
    </Alert>
  );
}

/** A compose project's auto-heal: one service at a time, picked from its services. */
export function ProjectAutoHeal({ project, services }: { project: string; services: string[] }) {
  const [picked, setPicked] = useState<string | null>(services[0] ?? null);
  if (!services.length) return null;
  return (
    <Stack gap="xs">
      {services.length > 1 && (
        <Select
          label="Auto-heal of service"
          allowDeselect={false}
          data={services}
          value={picked}
          onChange={setPicked}
          maw={320}
        />
      )}
      {picked && <AutoHealPanel name={project} service={picked} />}
    </Stack>
  );
}
