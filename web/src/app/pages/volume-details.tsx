import { Text } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { useVolume } from '../../features/volumes/api';
import { VolumeDetails, VolumeMenu } from '../../features/volumes/components/VolumeDetails';
import { errorMessage } from '../../lib/notify';

/** /resources/volumes/:volumeName */
export default function VolumeDetailsPage() {
  const { volumeName = '' } = useParams();
  const volume = useVolume(volumeName);
  if (volume.error) return <Text c="red">{errorMessage(volume.error)}</Text>;
  if (!volume.data) return <Text c="dimmed">Loading…</Text>;
  return (
    <>
      <PageHeader title={volume.data.Name} subtitle="Volume Details" actions={<VolumeMenu volume={volume.data} />} />
      <VolumeDetails volume={volume.data} />
    </>
  );
}
