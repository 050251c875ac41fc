import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { ServiceDetail } from '@berth/contract';
import { errorMessage } from '../../../lib/notify';
import { useSwarmObjects } from '../api';
import { serverFieldErrors, serviceFormErrors, type ServiceForm as Form } from '../form-model';
import { ServiceFormSections } from './ServiceFormSections';

/** Fields typed as text, one item per line: their items' server errors show on them. */
const LIST_FIELDS = new Set(['command', 'env', 'ports', 'constraints', 'labels', 'networks', 'secrets']);

export interface ServiceFormProps {
  initial: Form;
  /** Set when editing: the name and mode are fixed then. */
  editing?: ServiceDetail;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (form: Form) => void;
  /** Shown instead of the generic failure (a stale edit's reload offer). */
  errorNotice?: ReactNode;
}

/**
 * The service form (create and edit): image, replicas or global, command, env, ports, placement,
 * secrets, labels; mounts, resources, restart and update policies in collapsible sections. A
 * field's error is the form's own (once touched) or the one the server's 4xx named.
 */
export function ServiceForm({
  initial,
  editing,
  submitLabel,
  pending,
  error,
  onSubmit,
  errorNotice,
}: ServiceFormProps) {
  const [form, setForm] = useState<Form>(initial);
  const [touched, setTouched] = useState(false);
  const secrets = useSwarmObjects('secrets');
  const errors = serviceFormErrors(form, Boolean(editing));
  const server = useMemo(() => serverFieldErrors(error), [error]);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  /** A field's error by API path; a text area (ports, env…) also shows its items' (`ports.0.target`). */
  const errorFor = (path: string) => {
    const top = path.split('.')[0] as keyof Form;
    const own = touched || form[top] !== initial[top] ? errors[path] : undefined;
    return (
      own ??
      server[path] ??
      (LIST_FIELDS.has(path) ? Object.entries(server).find(([k]) => k.startsWith(`${path}.`))?.[1] : undefined)
    );
  };
  const shown = (key: keyof Form) => errorFor(key);
  const area = (
    key: 'command' | 'env' | 'ports' | 'constraints' | 'labels' | 'networks',
    label: string,
    placeholder: string,
    description?: string,
  ) => (
    <Textarea
      label={label}
      description={description}
      placeholder={placeholder}
      autosize
      minRows={2}
      value={form[key]}
      error={shown(key)}
      onChange={(e) => set(key, e.currentTarget.value)}
    />
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (Object.keys(errors).length === 0 && !pending) onSubmit(form);
  };
  return (
    <form onSubmit={submit} aria-label={editing ? `Edit service ${editing.name}` : 'Create Service'}>
      <Stack>
        {errorNotice ??
          (Boolean(error) && (
            <Alert color="red" title="The service was not saved">
              {errorMessage(error)}
            </Alert>
          ))}
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Name"
              required
              disabled={Boolean(editing)}
              value={form.name}
              error={shown('name')}
              onChange={(e) => set('name', e.currentTarget.value)}
              autoComplete="off"
            />
            <TextInput
              label="Image"
              required
              value={form.image}
              error={shown('image')}
              onChange={(e) => set('image', e.currentTarget.value)}
              placeholder="nginx:alpine"
              autoComplete="off"
            />
            <Stack gap={4}>
              <SegmentedControl
                aria-label="Mode"
                disabled={Boolean(editing)}
                data={[
                  { value: 'replicated', label: 'Replicated' },
                  { value: 'global', label: 'Global' },
                ]}
                value={form.mode}
                onChange={(v) => set('mode', v as Form['mode'])}
              />
            </Stack>
            {form.mode === 'replicated' && (
              <NumberInput
                label="Replicas"
                min={0}
                max={1000}
                value={form.replicas}
                error={shown('replicas')}
                onChange={(v) => set('replicas', typeof v === 'number' ? v : 0)}
              />
            )}
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {area(
              'command',
              'Command',
              'sh\n-c\necho hello; sleep 3600',
              'One argument per line; replaces the image command.',
            )}
            {area(
              'env',
              'Environment',
              'KEY=value',
              editing ? 'KEY=value per line; left empty, the current variables stay.' : 'KEY=value per line.',
            )}
            {area(
              'ports',
              'Ports',
              '8080:80\n53:53/udp host',
              'published:target[/protocol] [host]; ingress by default.',
            )}
            {area('constraints', 'Placement constraints', 'node.role==manager')}
            {area('networks', 'Networks', 'my-overlay', 'One overlay network per line.')}
            {area('labels', 'Labels', 'com.example.team=web')}
            <MultiSelect
              label="Secrets"
              data={secrets.data?.map((s) => s.name) ?? []}
              value={form.secrets}
              onChange={(v) => set('secrets', v)}
              searchable
              clearable
            />
          </SimpleGrid>
        </Paper>
        <ServiceFormSections
          form={form}
          set={set}
          errorFor={errorFor}
          errorPaths={[...Object.keys(server), ...(touched ? Object.keys(errors) : [])]}
        />
        <Group>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
