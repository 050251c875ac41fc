import { Text } from '@mantine/core';
import { Outlet, useParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { useVolume } from '../../features/volumes/api';
import { VolumeMenu } from '../../features/volumes/components/VolumeDetails';
import { VolumeTabs } from '../../features/volumes/components/VolumeTabs';
import { errorMessage } from '../../lib/notify';

/** /resources/volumes/:volumeName/*: the header with its menu, the tabs (Info, Files), then the tab's page. */
export default function VolumeLayout() {
  const { volumeName = '' } = useParams();
  const volume = useVolume(volumeName);
  if (volume.error) return <Text c="red">{errorMessage(volume.error)}</Text>;
  if (!volume.data) return <Text c="dimmed">Loading…</Text>;
  return (
    <>
      <PageHeader title={volume.data.Name} subtitle="Volume Details" actions={<VolumeMenu volume={volume.data} />} />
      <VolumeTabs name={volume.data.Name}>
        <Outlet />
      </VolumeTabs>
    </>
  );
}
