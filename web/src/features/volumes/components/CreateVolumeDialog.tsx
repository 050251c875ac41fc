import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { notifySuccess } from '../../../lib/notify';
import { useCreateVolume } from '../api';

/** 'Create Volume': one name field. */
export function CreateVolumeDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const create = useCreateVolume();
  const close = () => {
    setName('');
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim() || create.isPending) return;
    create.mutate(name.trim(), {
      onSuccess: () => {
        notifySuccess(`Volume ${name.trim()} created.`);
        close();
      },
    });
  };
  return (
    <Modal opened={opened} onClose={close} title="Create Volume" centered>
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="Volume name"
            required
            data-autofocus
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={255}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!name.trim()} loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
