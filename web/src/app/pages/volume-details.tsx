import { Stack } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { TargetBackupCard } from '../../features/backups';
import { useVolume } from '../../features/volumes/api';
import { VolumeDetails } from '../../features/volumes/components/VolumeDetails';

/** /resources/volumes/:volumeName/info (the layout above has loaded the volume) */

export default function VolumeInfoPage() {
  const { volumeName = '' } = useParams();
  const volume = useVolume(volumeName);
  if (!volume.data) return null;
  return (
    <Stack>
      <VolumeDetails volume={volume.data} />
      <TargetBackupCard target={{ kind: 'volume', name: volume.data.Name }} />
    </Stack>
  );
}
