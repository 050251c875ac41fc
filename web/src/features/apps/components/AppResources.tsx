import { useState } from 'react';
import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  appChangesApi,
  ENGINE_RESTART_POLICIES,
  type App,
  type AppResourcesBody,
  type EngineRestartPolicy,
} from '@berth/contract';
import { EditableBy } from '../../../components/RoleGate';
import { Section } from '../../../components/Section';
import { useAppResources } from '../api/changes';
import { resourcesForm, resourcesBody, type ResourcesForm } from '../resources-model';

/** Limits and restart policy, changed in place (the same container keeps running). */
export function AppResources({ app }: { app: App }) {
  const initial = resourcesForm(app);
  const [form, setForm] = useState<ResourcesForm>(initial);
  const save = useAppResources(app.name);
  const body: AppResourcesBody | null = resourcesBody(initial, form);
  const set = (patch: Partial<ResourcesForm>) => setForm((f) => ({ ...f, ...patch }));
  const num = (v: string | number) => (v === '' ? 0 : Number(v));
  return (
    <Section title="Resources">
      <EditableBy route={appChangesApi.resources}>
        <Stack>
          <Text size="sm" c="dimmed">
            Applied to the running container without recreating it. 0 means no limit.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            <NumberInput
              label="CPUs"
              min={0}
              step={0.25}
              decimalScale={2}
              value={form.cpus}
              onChange={(v) => set({ cpus: num(v) })}
            />
            <NumberInput
              label="Memory (MiB)"
              min={0}
              value={form.memoryMiB}
              onChange={(v) => set({ memoryMiB: num(v) })}
            />
            <NumberInput
              label="Memory + swap (MiB, -1 unlimited)"
              min={-1}
              value={form.swapMiB}
              onChange={(v) => set({ swapMiB: num(v) })}
            />
            <NumberInput
              label="CPU shares"
              min={0}
              value={form.cpuShares}
              onChange={(v) => set({ cpuShares: num(v) })}
            />
            <NumberInput
              label="PIDs limit"
              min={0}
              value={form.pidsLimit}
              onChange={(v) => set({ pidsLimit: num(v) })}
            />
            <Select
              label="Restart policy"
              data={[...ENGINE_RESTART_POLICIES]}
              value={form.restart}
              allowDeselect={false}
              onChange={(v) => v && set({ restart: v as EngineRestartPolicy })}
            />
            {form.restart === 'on-failure' && (
              <NumberInput
                label="Maximum retries (0 = no limit)"
                min={0}
                value={form.retries}
                onChange={(v) => set({ retries: num(v) })}
              />
            )}
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" disabled={!body} onClick={() => setForm(initial)}>
              Reset
            </Button>
            <Button disabled={!body} loading={save.isPending} onClick={() => body && save.mutate(body)}>
              Apply
            </Button>
          </Group>
        </Stack>
      </EditableBy>
    </Section>
  );
}
