import { NumberInput, Select, SimpleGrid } from '@mantine/core';
import type { ResourcesForm, RestartForm, UpdateForm } from '../form-model';

type ErrorFor = (path: string) => string | undefined;
const num = (v: string | number) => (typeof v === 'number' ? v : 0);
const blankable = (v: string | number): number | '' => (typeof v === 'number' ? v : '');

/** CPU and memory limits and reservations; blank = none. */
export function ResourcesFields({ value, onChange, errorFor }: { value: ResourcesForm; onChange: (v: ResourcesForm) => void; errorFor: ErrorFor }) {
  const set = (p: Partial<ResourcesForm>) => onChange({ ...value, ...p });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <NumberInput
        label="CPU limit"
        description="CPUs, e.g. 0.5; blank: no limit"
        min={0}
        max={1024}
        decimalScale={3}
        value={value.cpuLimit}
        error={errorFor('resources.cpuLimit')}
        onChange={(v) => set({ cpuLimit: blankable(v) })}
      />
      <NumberInput
        label="Memory limit (MiB)"
        description="Blank: no limit"
        min={0}
        decimalScale={2}
        value={value.memoryLimitMiB}
        error={errorFor('resources.memoryLimitBytes')}
        onChange={(v) => set({ memoryLimitMiB: blankable(v) })}
      />
      <NumberInput
        label="CPU reservation"
        description="CPUs a node must have free"
        min={0}
        max={1024}
        decimalScale={3}
        value={value.cpuReservation}
        error={errorFor('resources.cpuReservation')}
        onChange={(v) => set({ cpuReservation: blankable(v) })}
      />
      <NumberInput
        label="Memory reservation (MiB)"
        description="Memory a node must have free"
        min={0}
        decimalScale={2}
        value={value.memoryReservationMiB}
        error={errorFor('resources.memoryReservationBytes')}
        onChange={(v) => set({ memoryReservationMiB: blankable(v) })}
      />
    </SimpleGrid>
  );
}

/** When the engine restarts a task: condition, delay, attempts and the window they are counted in. */
export function RestartFields({ value, onChange, errorFor }: { value: RestartForm; onChange: (v: RestartForm) => void; errorFor: ErrorFor }) {
  const set = (p: Partial<RestartForm>) => onChange({ ...value, ...p });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Select
        label="Restart condition"
        allowDeselect={false}
        data={[
          { value: 'any', label: 'Any exit' },
          { value: 'on-failure', label: 'On failure' },
          { value: 'none', label: 'Never' },
        ]}
        value={value.condition}
        error={errorFor('restartPolicy.condition')}
        onChange={(v) => v && set({ condition: v as RestartForm['condition'] })}
      />
      <NumberInput label="Restart delay (s)" min={0} max={86400} decimalScale={3} value={value.delaySeconds} error={errorFor('restartPolicy.delaySeconds')} onChange={(v) => set({ delaySeconds: num(v) })} />
      <NumberInput
        label="Max attempts"
        description="0: no limit"
        min={0}
        max={10000}
        allowDecimal={false}
        value={value.maxAttempts}
        error={errorFor('restartPolicy.maxAttempts')}
        onChange={(v) => set({ maxAttempts: num(v) })}
      />
      <NumberInput
        label="Window (s)"
        description="How long a restart is watched before the next attempt counts; 0: unbounded"
        min={0}
        max={86400}
        decimalScale={3}
        value={value.windowSeconds}
        error={errorFor('restartPolicy.windowSeconds')}
        onChange={(v) => set({ windowSeconds: num(v) })}
      />
    </SimpleGrid>
  );
}

/** How an update rolls over the tasks: how many at once, the pause between, what a failure does, and the order. */
export function UpdateFields({ value, onChange, errorFor }: { value: UpdateForm; onChange: (v: UpdateForm) => void; errorFor: ErrorFor }) {
  const set = (p: Partial<UpdateForm>) => onChange({ ...value, ...p });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <NumberInput
        label="Parallelism"
        description="Tasks updated at once; 0: all"
        min={0}
        max={1000}
        allowDecimal={false}
        value={value.parallelism}
        error={errorFor('updatePolicy.parallelism')}
        onChange={(v) => set({ parallelism: num(v) })}
      />
      <NumberInput label="Update delay (s)" min={0} max={86400} decimalScale={3} value={value.delaySeconds} error={errorFor('updatePolicy.delaySeconds')} onChange={(v) => set({ delaySeconds: num(v) })} />
      <Select
        label="On failure"
        allowDeselect={false}
        data={[
          { value: 'pause', label: 'Pause' },
          { value: 'continue', label: 'Continue' },
          { value: 'rollback', label: 'Roll back' },
        ]}
        value={value.failureAction}
        error={errorFor('updatePolicy.failureAction')}
        onChange={(v) => v && set({ failureAction: v as UpdateForm['failureAction'] })}
      />
      <Select
        label="Order"
        allowDeselect={false}
        data={[
          { value: 'stop-first', label: 'Stop the old task first' },
          { value: 'start-first', label: 'Start the new task first' },
        ]}
        value={value.order}
        error={errorFor('updatePolicy.order')}
        onChange={(v) => v && set({ order: v as UpdateForm['order'] })}
      />
    </SimpleGrid>
  );
}
