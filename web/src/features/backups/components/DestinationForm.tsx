import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { useSaveDestination } from '../api';
import {
  destinationBody,
  destinationFields,
  destinationKinds,
  kindLabel,
  type DestinationKind,
  type FieldSpec,
} from '../model';

type Values = Record<string, string | boolean>;

/** One input, chosen by the field's spec (from the contract's schema). */
function FieldInput({
  f,
  value,
  onChange,
}: {
  f: FieldSpec;
  value: string | boolean;
  onChange: (v: string | boolean) => void;
}) {
  const common = { label: f.label, description: f.description, required: f.required, autoComplete: 'off' };
  switch (f.input) {
    case 'checkbox':
      return <Checkbox label={f.label} checked={Boolean(value)} onChange={(e) => onChange(e.currentTarget.checked)} />;
    case 'number':
      return (
        <NumberInput {...common} value={String(value)} onChange={(v) => onChange(String(v))} allowDecimal={false} />
      );
    case 'select':
      return (
        <Select {...common} data={f.options ?? []} value={String(value) || null} onChange={(v) => onChange(v ?? '')} />
      );
    case 'secret':
      return (
        <PasswordInput
          {...common}
          autoComplete="new-password"
          value={String(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    case 'multiline':
      return (
        <Textarea
          {...common}
          ff="monospace"
          autosize
          minRows={2}
          maxRows={8}
          value={String(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    default:
      return <TextInput {...common} value={String(value)} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
}

/** Add a destination: its kind, then the fields the contract gives that kind. Berth writes to it before keeping it. */
export function DestinationForm({ onClose }: { onClose: () => void }) {
  const kinds = destinationKinds();
  const [kind, setKind] = useState<DestinationKind>(kinds[0]!);
  const fields = destinationFields(kind);
  const [values, setValues] = useState<Values>({});
  const save = useSaveDestination();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(destinationBody(kind, fields, values), {
      onSuccess: (d) => {
        notifySuccess(`Destination ${d.name} added: Berth wrote to it and removed what it wrote.`);
        onClose();
      },
    });
  };
  return (
    <Modal opened onClose={onClose} title="Add backup destination">
      <form onSubmit={submit} aria-label="Add backup destination">
        <Stack>
          <Select
            label="Kind"
            data={kinds.map((k) => ({ value: k, label: kindLabel(k) }))}
            value={kind}
            onChange={(v) => v && (save.reset(), setKind(v as DestinationKind))}
            allowDeselect={false}
          />
          {fields.map((f) => (
            <FieldInput
              key={`${kind}.${f.key}`}
              f={f}
              value={values[f.key] ?? f.defaultValue}
              onChange={(v) => setValues((old) => ({ ...old, [f.key]: v }))}
            />
          ))}
          {save.error && (
            <Alert color="red" role="alert">
              {errorMessage(save.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Add
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
