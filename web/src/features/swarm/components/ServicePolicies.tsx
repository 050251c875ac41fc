import { NumberInput, Select, SimpleGrid } from '@mantine/core';
import type { ResourcesForm, RestartForm, UpdateForm } from '../form-model';

type ErrorFor = (path: string) => string | undefined;

interface NumberFieldProps<T> {
  value: T;
  onChange: (v: T) => void;
  errorFor: ErrorFor;
  /** The API object the fields belong to (`resources`, `restartPolicy`…), for the error paths. */
  api: string;
}

/**
 * One number of a policy: `field` is the form's key, `apiField` the API's (for the error shown);
 * `blank` lets it be empty (no limit), else empty means 0; `whole` allows no decimals.
 */
function numberField<T extends object>(
  p: NumberFieldProps<T>,
  field: keyof T & string,
  label: string,
  o: { apiField?: string; description?: string; max?: number; blank?: boolean; whole?: boolean } = {},
) {
  const raw = p.value[field] as number | '';
  return (
    <NumberInput
      label={label}
      description={o.description}
      min={0}
      max={o.max}
      allowDecimal={!o.whole}
      decimalScale={3}
      value={raw}
      error={p.errorFor(`${p.api}.${o.apiField ?? field}`)}
      onChange={(v) => p.onChange({ ...p.value, [field]: typeof v === 'number' ? v : o.blank ? '' : 0 })}
    />
  );
}

function selectField<T extends object>(
  p: NumberFieldProps<T>,
  field: keyof T & string,
  label: string,
  data: { value: string; label: string }[],
) {
  return (
    <Select
      label={label}
      allowDeselect={false}
      data={data}
      value={p.value[field] as string}
      error={p.errorFor(`${p.api}.${field}`)}
      onChange={(v) => v && p.onChange({ ...p.value, [field]: v })}
    />
  );
}

type Props<T> = Omit<NumberFieldProps<T>, 'api'>;

/** CPU and memory limits and reservations; blank = none. */
export function ResourcesFields(props: Props<ResourcesForm>) {
  const p = { ...props, api: 'resources' };
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {numberField(p, 'cpuLimit', 'CPU limit', {
        description: 'CPUs, e.g. 0.5; blank: no limit',
        max: 1024,
        blank: true,
      })}
      {numberField(p, 'memoryLimitMiB', 'Memory limit (MiB)', {
        apiField: 'memoryLimitBytes',
        description: 'Blank: no limit',
        blank: true,
      })}
      {numberField(p, 'cpuReservation', 'CPU reservation', {
        description: 'CPUs a node must have free',
        max: 1024,
        blank: true,
      })}
      {numberField(p, 'memoryReservationMiB', 'Memory reservation (MiB)', {
        apiField: 'memoryReservationBytes',
        description: 'Memory a node must have free',
        blank: true,
      })}
    </SimpleGrid>
  );
}

/** When the engine restarts a task: condition, delay, attempts and the window they are counted in. */
export function RestartFields(props: Props<RestartForm>) {
  const p = { ...props, api: 'restartPolicy' };
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {selectField(p, 'condition', 'Restart condition', [
        { value: 'any', label: 'Any exit' },
        { value: 'on-failure', label: 'On failure' },
        { value: 'none', label: 'Never' },
      ])}
      {numberField(p, 'delaySeconds', 'Restart delay (s)', { max: 86400 })}
      {numberField(p, 'maxAttempts', 'Max attempts', { description: '0: no limit', max: 10000, whole: true })}
      {numberField(p, 'windowSeconds', 'Window (s)', {
        description: 'How long a restart is watched before the next attempt counts; 0: unbounded',
        max: 86400,
      })}
    </SimpleGrid>
  );
}

/** How an update rolls over the tasks: how many at once, the pause between, what a failure does, and the order. */
export function UpdateFields(props: Props<UpdateForm>) {
  const p = { ...props, api: 'updatePolicy' };
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {numberField(p, 'parallelism', 'Parallelism', {
        description: 'Tasks updated at once; 0: all',
        max: 1000,
        whole: true,
      })}
      {numberField(p, 'delaySeconds', 'Update delay (s)', { max: 86400 })}
      {selectField(p, 'failureAction', 'On failure', [
        { value: 'pause', label: 'Pause' },
        { value: 'continue', label: 'Continue' },
        { value: 'rollback', label: 'Roll back' },
      ])}
      {selectField(p, 'order', 'Order', [
        { value: 'stop-first', label: 'Stop the old task first' },
        { value: 'start-first', label: 'Start the new task first' },
      ])}
    </SimpleGrid>
  );
}
