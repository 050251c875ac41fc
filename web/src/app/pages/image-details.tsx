import { Text } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { useImage } from '../../features/images/api/queries';
import { ImageDetails } from '../../features/images/components/ImageDetails';
import { ImageMenu } from '../../features/images/components/ImageMenu';
import { imageTag } from '../../features/images/model';
import { errorMessage } from '../../lib/notify';

/** /resources/images/:imageid */
export default function ImageDetailsPage() {
  const { imageid = '' } = useParams();
  const image = useImage(imageid);
  if (image.error) return <Text c="red">{errorMessage(image.error)}</Text>;
  if (!image.data) return <Text c="dimmed">Loading…</Text>;
  return (
    <>
      <PageHeader title={imageTag(image.data)} subtitle="Image Details" actions={<ImageMenu image={image.data} />} />
      <ImageDetails image={image.data} />
    </>
  );
}
