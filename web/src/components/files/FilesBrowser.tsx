import { useState, type DragEvent } from 'react';
import {
  ActionIcon,
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  FileButton,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  IconDownload,
  IconFile,
  IconFolder,
  IconFolderPlus,
  IconLink,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import type { FileEntry } from '@berth/contract';
import { ConfirmDialog } from '../ConfirmDialog';
import { DataTable, type Column } from '../DataTable';
import { Can } from '../RoleGate';
import { errorMessage, notifyError } from '../../lib/notify';
import { useEnvironment } from '../../lib/environment';
import {
  downloadFile,
  filesApi,
  useDeleteFile,
  useFileListing,
  useLinkKind,
  useMakeFolder,
  useUploadFiles,
  type FilesTarget,
} from './files-api';
import { FileEditor } from './FileEditor';

const join = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);
const ICONS = { directory: IconFolder, symlink: IconLink, file: IconFile, other: IconFile };

function crumbs(path: string): { label: string; path: string }[] {
  const parts = path.split('/').filter(Boolean);
  return [
    { label: '/', path: '/' },
    ...parts.map((p, i) => ({ label: p, path: `/${parts.slice(0, i + 1).join('/')}` })),
  ];
}

/**
 * The files of an app or a volume: breadcrumbs, a sortable listing, download, upload (drag and
 * drop), editor, new folder, delete (the writes only for a role that may make them).
 */
export function FilesBrowser({
  target,
  path,
  onPath,
}: {
  target: FilesTarget;
  path: string;
  onPath: (p: string) => void;
}) {
  const env = useEnvironment();
  const routes = filesApi(target.kind);
  const listing = useFileListing(target, path);
  const upload = useUploadFiles(target);
  const mkdir = useMakeFolder(target);
  const del = useDeleteFile(target);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<FileEntry | null>(null);
  const [folder, setFolder] = useState('');
  const [dragging, setDragging] = useState(false);
  // The listing answers with the folder a symlink led to.
  const dir = listing.data?.path ?? path;
  const linkKind = useLinkKind(target);
  const open = (e: FileEntry) => {
    if (e.type === 'file') setEditing(e.path);
    else if (e.type !== 'symlink') onPath(e.path);
    else
      void linkKind(e.path)
        .then((kind) => (kind === 'folder' ? onPath(e.path) : setEditing(e.path)))
        .catch(notifyError);
  };
  const send = (files: File[]) => files.length > 0 && upload.mutate({ dir, files });
  const onDrop = (ev: DragEvent) => {
    ev.preventDefault();
    setDragging(false);
    send(Array.from(ev.dataTransfer.files));
  };
  const columns: Column<FileEntry>[] = [
    {
      key: 'name',
      header: 'Name',
      sortable: true,
      sortValue: (e) => `${e.type === 'directory' ? 0 : 1}${e.name}`,
      render: (e) => {
        const Icon = ICONS[e.type];
        return (
          <Group gap={6} wrap="nowrap">
            <Icon size={16} />
            <Anchor size="sm" component="button" onClick={() => open(e)}>
              {e.name}
            </Anchor>
            {e.link_target !== null && (
              <Text size="xs" c="dimmed">
                → {e.link_target}
              </Text>
            )}
          </Group>
        );
      },
    },
    { key: 'size', header: 'Size', sortable: true, render: (e) => (e.type === 'directory' ? '-' : e.size) },
    { key: 'mode', header: 'Mode', sortable: true },
    { key: 'owner', header: 'Owner', sortable: true },
    { key: 'modified', header: 'Modified', sortable: true, render: (e) => new Date(e.modified).toLocaleString() },
  ];
  return (
    <Stack>
      <Breadcrumbs>
        {crumbs(dir).map((c) => (
          <Anchor key={c.path} size="sm" component="button" onClick={() => onPath(c.path)}>
            {c.label}
          </Anchor>
        ))}
      </Breadcrumbs>
      {listing.error && (
        <Alert color="yellow" role="alert">
          {errorMessage(listing.error)}
        </Alert>
      )}
      <Paper
        withBorder
        p="xs"
        onDragOver={(ev) => (ev.preventDefault(), setDragging(true))}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        bg={dragging ? 'var(--mantine-color-blue-light)' : undefined}
        data-testid="files-drop"
      >
        <DataTable
          label="Files"
          data={listing.data?.entries}
          loading={listing.isPending}
          columns={columns}
          rowKey={(e) => e.path}
          defaultSort={{ key: 'name', direction: 'asc' }}
          pageSize={0}
          searchPlaceholder="Filter"
          emptyText={listing.error ? 'This folder cannot be read.' : 'Empty folder.'}
          rowMenu={(e) => (
            <Group gap={4} wrap="nowrap">
              <ActionIcon
                variant="subtle"
                aria-label={`Download ${e.name}`}
                onClick={() => void downloadFile(env, target, e.path).catch(notifyError)}
              >
                <IconDownload size={16} />
              </ActionIcon>
              <Can route={routes.remove}>
                <ActionIcon variant="subtle" color="red" aria-label={`Delete ${e.name}`} onClick={() => setDeleting(e)}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Can>
            </Group>
          )}
          toolbar={
            <Can route={routes.upload}>
              <Group gap="xs">
                <FileButton onChange={(files) => send(files)} multiple>
                  {(props) => (
                    <Button {...props} size="xs" leftSection={<IconUpload size={16} />} loading={upload.isPending}>
                      Upload
                    </Button>
                  )}
                </FileButton>
                <TextInput
                  size="xs"
                  placeholder="New folder"
                  aria-label="New folder name"
                  value={folder}
                  onChange={(e) => setFolder(e.currentTarget.value)}
                />
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconFolderPlus size={16} />}
                  disabled={!folder.trim() || folder.includes('/')}
                  loading={mkdir.isPending}
                  onClick={() => mkdir.mutate(join(dir, folder.trim()), { onSuccess: () => setFolder('') })}
                >
                  New folder
                </Button>
              </Group>
            </Can>
          }
        />
        <Text size="xs" c="dimmed" mt="xs">
          Drop files here to upload them into {dir}.
        </Text>
      </Paper>
      {editing && <FileEditor target={target} path={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={`Delete ${deleting?.path ?? ''}?`}
        loading={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.path, { onSettled: () => setDeleting(null) })}
      >
        {deleting?.type === 'directory'
          ? 'The folder and everything in it will be deleted.'
          : 'The file will be deleted.'}
      </ConfirmDialog>
    </Stack>
  );
}
