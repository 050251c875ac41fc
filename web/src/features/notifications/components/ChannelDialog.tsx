import { useState } from 'react';
import { Button, Checkbox, Group, Modal, NumberInput, SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import {
  CHANNEL_DESTINATION_FIELDS,
  CHANNEL_TYPES,
  type Channel,
  type ChannelBody,
  type ChannelType,
} from '@berth/contract';
import { PasswordField } from '../../../components/PasswordField';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useAddChannel, useEditChannel } from '../api';
import { CHANNEL_FIELDS, initialValues, toBody, type FieldDef, type FormValues } from './channel-fields';

interface Props {
  /** The channel to edit, or null to add one. */
  channel: Channel | null;
  onClose: () => void;
}

/** Add or edit a channel. Secrets are never shown: empty keeps the stored one, "Remove" clears it. */
export function ChannelDialog({ channel, onClose }: Props) {
  const [type, setType] = useState<ChannelType>(channel?.type ?? 'webhook');
  const [values, setValues] = useState<FormValues>(() => initialValues(channel, channel?.type ?? 'webhook'));
  const [clear, setClear] = useState<string[]>([]);
  const add = useAddChannel();
  const edit = useEditChannel();
  const set = (key: string, v: string) => setValues((prev) => ({ ...prev, [key]: v }));
  // A new address drops the stored secrets on the server unless they are typed again (issue 38 #13).
  const moved =
    channel !== null &&
    (CHANNEL_DESTINATION_FIELDS[channel.type] ?? []).some(
      (k) => (values[k] ?? '') !== String(channel[k as keyof Channel] ?? ''),
    );

  const save = () => {
    const body = toBody(type, values, channel !== null, clear);
    const done = () => {
      notifySuccess(channel ? 'Channel saved.' : 'Channel added.');
      onClose();
    };
    if (channel) edit.mutate({ id: channel.id, patch: body }, { onSuccess: done, onError: (e) => notifyError(e) });
    else add.mutate(body as ChannelBody, { onSuccess: done, onError: (e) => notifyError(e) });
  };

  const field = (f: FieldDef) => {
    const label = f.label;
    if (f.kind === 'tls')
      return (
        <Select
          key={f.key}
          label={label}
          data={['none', 'starttls', 'tls']}
          value={values.tls ?? 'starttls'}
          allowDeselect={false}
          onChange={(v) => set('tls', v ?? 'starttls')}
        />
      );
    if (f.kind === 'number')
      return (
        <NumberInput
          key={f.key}
          label={label}
          required={f.required}
          value={values[f.key] ?? ''}
          onChange={(v) => set(f.key, String(v))}
          min={1}
          max={65535}
        />
      );
    if (f.kind === 'secret') {
      const isSet = !moved && (channel?.secrets_set.includes(f.key) ?? false);
      return (
        <Stack key={f.key} gap={4}>
          <PasswordField
            label={label}
            required={f.required && !isSet}
            placeholder={isSet ? 'Set (leave empty to keep)' : f.placeholder}
            description={
              moved && channel?.secrets_set.includes(f.key)
                ? 'The address changed: enter it again, or it is removed.'
                : undefined
            }
            value={values[f.key] ?? ''}
            disabled={clear.includes(f.key)}
            onChange={(e) => set(f.key, e.currentTarget.value)}
          />
          {isSet && !f.required && (
            <Checkbox
              size="xs"
              label={`Remove the stored ${label.toLowerCase()}`}
              checked={clear.includes(f.key)}
              onChange={(e) =>
                setClear((c) => (e.currentTarget.checked ? [...c, f.key] : c.filter((k) => k !== f.key)))
              }
            />
          )}
        </Stack>
      );
    }
    return (
      <TextInput
        key={f.key}
        label={label}
        required={f.required}
        placeholder={f.placeholder}
        value={values[f.key] ?? ''}
        onChange={(e) => set(f.key, e.currentTarget.value)}
      />
    );
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={channel ? `Edit channel ${channel.name}` : 'Add a notification channel'}
      centered
      size="lg"
    >
      <Stack>
        <TextInput
          label="Name"
          required
          value={values.name ?? ''}
          onChange={(e) => set('name', e.currentTarget.value)}
          data-autofocus
        />
        {!channel && (
          <SegmentedControl
            aria-label="Channel type"
            data={[...CHANNEL_TYPES]}
            value={type}
            onChange={(v) => {
              setType(v as ChannelType);
              setValues((prev) => ({ ...initialValues(null, v as ChannelType), name: prev.name ?? '' }));
            }}
          />
        )}
        {CHANNEL_FIELDS[type].map(field)}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={add.isPending || edit.isPending}>
            {channel ? 'Save' : 'Add'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
