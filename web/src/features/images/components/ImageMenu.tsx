import { useState } from 'react';
import { Menu } from '@mantine/core';
import { IconCloudDownload, IconCloudUpload, IconDownload, IconTag } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { imageApi, type ImageDetail } from '@berth/contract';
import { notifySuccess } from '../../../lib/notify';
import { useEnvironment } from '../../../lib/environment';
import { exportUrl, usePushImage } from '../api/transfer';
import { TagImageDialog } from './TagImageDialog';
import { useDeleteImage, useRepullImage } from '../api/queries';
import { imageTag } from '../model';
import { DeleteImageBody } from './ImageNames';
import { DetailMenu } from '../../../components/Menus';

/** The detail page's menu: Pull Image (when tagged), Delete Image. */
export function ImageMenu({ image }: { image: ImageDetail }) {
  const navigate = useNavigate();
  const repull = useRepullImage();
  const remove = useDeleteImage();
  const push = usePushImage();
  const env = useEnvironment();
  const [tagging, setTagging] = useState(false);

  const pullAgain = () =>
    repull.mutate(image.Id, {
      onSuccess: (now) => {
        notifySuccess(`Pulled ${imageTag(now)}.`);
        if (now.Id !== image.Id) navigate(`/resources/images/${encodeURIComponent(now.Id)}`, { replace: true });
      },
    });
  const onDelete = (settled: () => void) =>
    remove.mutate(image.Id, {
      onSuccess: () => {
        notifySuccess(`Image ${imageTag(image)} deleted.`);
        navigate('/resources/images');
      },
      onSettled: settled,
    });

  return (
    <>
      {tagging && <TagImageDialog id={image.Id} onClose={() => setTagging(false)} />}
      <DetailMenu
        deleteLabel="Delete Image"
        deleteRoute={imageApi.remove}
        confirmTitle="Delete the image?"
        confirmText={<DeleteImageBody image={image} />}
        deleting={remove.isPending}
        onDelete={onDelete}
        loading={repull.isPending || push.isPending}
      >
        <Menu.Item
          leftSection={<IconCloudDownload size={16} />}
          disabled={image.RepoTags.length === 0}
          onClick={pullAgain}
        >
          Pull Image
        </Menu.Item>
        <Menu.Item leftSection={<IconTag size={16} />} onClick={() => setTagging(true)}>
          Tag Image
        </Menu.Item>
        <Menu.Item
          leftSection={<IconCloudUpload size={16} />}
          disabled={image.RepoTags.length === 0}
          onClick={() =>
            push.mutate(
              { id: image.Id },
              { onSuccess: (r) => notifySuccess(`Pushed ${r.pushed.map((p) => p.tag).join(', ')}.`) },
            )
          }
        >
          Push Image
        </Menu.Item>
        <Menu.Item leftSection={<IconDownload size={16} />} component="a" href={exportUrl(env, [image.Id])} download>
          Export Image
        </Menu.Item>
      </DetailMenu>
    </>
  );
}
