import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Select, Stack } from '@mantine/core';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { useSaveDestination } from '../api';
import { kindLabel, type FieldValues } from '../form-schema';
import { destinationBody, destinationFields, destinationKinds, type DestinationKind } from '../model';
import { FieldInput } from './FieldInput';

/** Add a destination: its kind, then the fields the contract gives that kind. Berth writes to it before keeping it. */
export function DestinationForm({ onClose }: { onClose: () => void }) {
  const kinds = destinationKinds();
  const [kind, setKind] = useState<DestinationKind>(kinds[0]!);
  const fields = destinationFields(kind);
  const [values, setValues] = useState<FieldValues>({});
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
