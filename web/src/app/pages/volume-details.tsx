import { useParams } from 'react-router-dom';
import { useVolume } from '../../features/volumes/api';
import { VolumeDetails } from '../../features/volumes/components/VolumeDetails';

/** /resources/volumes/:volumeName/info (the layout above has loaded the volume) */

export default function VolumeInfoPage() {
  const { volumeName = '' } = useParams();
  const volume = useVolume(volumeName);
  return volume.data ? <VolumeDetails volume={volume.data} /> : null;
}
