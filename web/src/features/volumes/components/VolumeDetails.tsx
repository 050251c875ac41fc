import { Stack } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { volumeApi, type Volume } from '@berth/contract';
import { formatDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { Section } from '../../../components/Section';
import { FieldGrid, PairsTable } from '../../../components/Fields';
import { DetailMenu } from '../../../components/Menus';
import { useDeleteVolume } from '../api';

export function VolumeDetails({ volume }: { volume: Volume }) {
  return (
    <Stack>
      <FieldGrid
        fields={[
          { label: 'Name', value: volume.Name },
          { label: 'Driver', value: volume.Driver },
          { label: 'Mountpoint', value: volume.Mountpoint, mono: true },
          { label: 'Scope', value: volume.Scope },
          { label: 'Created', value: formatDate(volume.CreatedAt) },
          { label: 'Project', value: volume.Project ?? '-' },
        ]}
      />
      <Section title="Labels">
        <PairsTable label="Labels" keyHeader="Label" pairs={volume.Labels} />
      </Section>
    </Stack>
  );
}

/** The detail page's menu: Delete Volume, then back to the list. */
export function VolumeMenu({ volume }: { volume: Volume }) {
  const navigate = useNavigate();
  const remove = useDeleteVolume();
  const onDelete = (settled: () => void) =>
    remove.mutate(volume.Name, {
      onSuccess: () => {
        notifySuccess(`Volume ${volume.Name} deleted.`);
        navigate('/resources/volumes');
      },
      onSettled: settled,
    });
  return (
    <DetailMenu
      deleteLabel="Delete Volume"
      deleteRoute={volumeApi.remove}
      confirmTitle="Delete the volume?"
      confirmText={`The volume ${volume.Name} and the data in it will be permanently deleted.`}
      deleting={remove.isPending}
      onDelete={onDelete}
    />
  );
}
