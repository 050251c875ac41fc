import { useState } from 'react';
import { imageApi, type ImageDetail } from '@berth/contract';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { notifySuccess } from '../../../lib/notify';
import { useCan } from '../../../lib/session';
import { useUntagImage } from '../api/queries';
import { NameList } from './ImageNames';

/** Every tag of the image; one of several can be removed (the image and its other tags stay). */
export function ImageTags({ image }: { image: ImageDetail }) {
  const untag = useUntagImage();
  const canUntag = useCan(imageApi.untag);
  const [tag, setTag] = useState<string | null>(null);
  const confirm = () => {
    if (!tag) return;
    untag.mutate(
      { id: image.Id, tag },
      { onSuccess: () => notifySuccess(`Tag ${tag} removed.`), onSettled: () => setTag(null) },
    );
  };
  return (
    <>
      <NameList
        names={image.RepoTags}
        onUntag={canUntag && image.RepoTags.length > 1 ? setTag : undefined}
        untagging={untag.isPending ? untag.variables.tag : null}
      />
      <ConfirmDialog
        opened={tag !== null}
        title="Remove the tag?"
        confirmLabel="Remove tag"
        loading={untag.isPending}
        onConfirm={confirm}
        onCancel={() => setTag(null)}
      >
        {`${tag ?? ''} will no longer name this image. The image and its other tags stay.`}
      </ConfirmDialog>
    </>
  );
}
