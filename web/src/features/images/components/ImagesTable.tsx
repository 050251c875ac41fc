import { useState } from 'react';
import { Button, Group, Menu, Text } from '@mantine/core';
import { IconCloudDownload } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { imageApi, imageBuildApi, type ImageSummary } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { BatchBar, REMOVE_ACTIONS, useBatchSelection } from '../../../components/BatchBar';
import { AddAction } from '../../../components/AddAction';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatBytes, formatDate, toDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteImage, useImages, useRemoveImages, useRepullImage } from '../api/queries';
import { imageNames, imageTag, shortImageId } from '../model';
import { DeleteImageBody, TagCell } from './ImageNames';
import { RowMenu } from '../../../components/Menus';
import { PullImageDialog } from './PullImageDialog';
import { BuildImageDialog } from './BuildImageDialog';
import type { CredentialPicker } from './GitSourceFields';
import { LoadImageDialog } from './LoadImageDialog';
import { exportUrl } from '../api/transfer';
import { useEnvironment } from '../../../lib/environment';

const imageId = (i: ImageSummary) => i.Id;

const columns: Column<ImageSummary>[] = [
  {
    key: 'tag',
    header: 'Tag',
    sortable: true,
    sortValue: imageTag,
    searchValue: (i) => [...imageNames(i), shortImageId(i.Id)].join(' '),
    render: (i) => <TagCell image={i} />,
  },
  {
    key: 'Id',
    header: 'ID',
    sortable: true,
    sortValue: (i) => shortImageId(i.Id),
    render: (i) => (
      <Text ff="monospace" size="sm">
        {shortImageId(i.Id)}
      </Text>
    ),
  },
  {
    key: 'Size',
    header: 'Size',
    sortable: true,
    sortValue: (i) => i.Size,
    searchValue: (i) => formatBytes(i.Size),
    render: (i) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatBytes(i.Size)}
      </Text>
    ),
  },
  {
    key: 'SharedSize',
    header: 'Shared',
    sortable: true,
    sortValue: (i) => i.SharedSize ?? -1,
    searchValue: (i) => (i.SharedSize == null ? '' : formatBytes(i.SharedSize)),
    render: (i) =>
      i.SharedSize == null ? (
        <Text size="sm" c="dimmed" title="This engine does not count shared layers (Docker API before 1.42).">
          -
        </Text>
      ) : (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }} title="Part of the size in layers other images use too">
          {formatBytes(i.SharedSize)}
        </Text>
      ),
  },
  {
    key: 'Created',
    header: 'Created',
    sortable: true,
    sortValue: (i) => toDate(i.Created)?.getTime(),
    searchValue: (i) => formatDate(i.Created),
    render: (i) => formatDate(i.Created),
  },
];

/** Images: search, sort, paging, pull, re-pull and delete. */
export function ImagesTable({ credentialPicker }: { credentialPicker?: CredentialPicker }) {
  const navigate = useNavigate();
  const images = useImages();
  const repull = useRepullImage();
  const remove = useDeleteImage();
  const removeMany = useRemoveImages();
  const { selection, selectedRows } = useBatchSelection(images.data, imageId, imageTag, imageApi.batch);
  const [pulling, setPulling] = useState(false);
  const [dialog, setDialog] = useState<'build' | 'load' | null>(null);
  const env = useEnvironment();
  const [deleting, setDeleting] = useState<ImageSummary | null>(null);
  const open = (i: ImageSummary) => navigate(`/resources/images/${encodeURIComponent(i.Id)}`);

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.Id, {
      onSuccess: (image) => notifySuccess(`Image ${imageTag(image)} deleted.`),
      onSettled: () => setDeleting(null),
    });
  };

  const rowMenu = (i: ImageSummary) => (
    <RowMenu
      name={imageTag(i)}
      onView={() => open(i)}
      onDelete={() => setDeleting(i)}
      deleteRoute={imageApi.remove}
      loading={repull.isPending && repull.variables === i.Id}
    >
      {i.RepoTags.length > 0 && (
        <Can route={imageApi.repull}>
          <Menu.Item
            leftSection={<IconCloudDownload size={16} />}
            onClick={() => repull.mutate(i.Id, { onSuccess: (img) => notifySuccess(`Pulled ${imageTag(img)}.`) })}
          >
            Pull
          </Menu.Item>
        </Can>
      )}
    </RowMenu>
  );

  return (
    <>
      {images.error && <Text c="red">{images.error.message}</Text>}
      <BatchBar
        noun={['image', 'images']}
        selectedRows={selectedRows}
        selection={selection}
        rowKey={imageId}
        itemOf={imageId}
        labelOf={imageTag}
        actions={REMOVE_ACTIONS}
        run={async (_action, ids) => (await removeMany.mutateAsync(ids)).results}
      />
      <DataTable
        label="Images"
        data={images.data}
        columns={columns}
        rowKey={imageId}
        selection={selection}
        searchPlaceholder="Search images"
        loading={images.isLoading || repull.isPending}
        onRowClick={open}
        rowMenu={rowMenu}
        emptyText="No Images available."
        toolbar={
          <Group gap="xs">
            {selectedRows.length > 0 && (
              <Button
                size="xs"
                variant="default"
                component="a"
                href={exportUrl(env, selectedRows.map(imageId))}
                download
              >
                Export {selectedRows.length}
              </Button>
            )}
            <Can route={imageBuildApi.build}>
              <Button size="xs" variant="default" onClick={() => setDialog('build')}>
                Build
              </Button>
              <Button size="xs" variant="default" onClick={() => setDialog('load')}>
                Load
              </Button>
            </Can>
            <AddAction label="Pull Image" route={imageApi.pull} onClick={() => setPulling(true)} />
          </Group>
        }
      />
      <PullImageDialog opened={pulling} onClose={() => setPulling(false)} />
      <BuildImageDialog
        opened={dialog === 'build'}
        onClose={() => setDialog(null)}
        credentialPicker={credentialPicker}
      />
      <LoadImageDialog opened={dialog === 'load'} onClose={() => setDialog(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete the image?"
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        {deleting && <DeleteImageBody image={deleting} />}
      </ConfirmDialog>
    </>
  );
}
