import { useState, type ReactNode } from 'react';
import { ActionIcon, Button, Menu } from '@mantine/core';
import { IconChevronDown, IconDotsVertical, IconEye, IconTrash } from '@tabler/icons-react';
import { ConfirmDialog } from './ConfirmDialog';

/** A list row's menu: View, any extra items, Delete (images, volumes, networks share it). */
export function RowMenu({ name, onView, onDelete, loading, children }: { name: string; onView: () => void; onDelete: () => void; loading?: boolean; children?: ReactNode }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`} loading={loading}>
          <IconDotsVertical size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconEye size={16} />} onClick={onView}>
          View
        </Menu.Item>
        {children}
        <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={onDelete}>
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export interface DetailMenuProps {
  /** The delete item's label, e.g. 'Delete Volume'. */
  deleteLabel: string;
  /** The confirmation's title and text, e.g. 'Delete the volume?'. */
  confirmTitle: string;
  confirmText: ReactNode;
  deleting: boolean;
  /** Runs the delete; calls `settled` when it is over (either way) so the dialog closes. */
  onDelete: (settled: () => void) => void;
  loading?: boolean;
  /** Items above Delete. */
  children?: ReactNode;
}

/** A detail page's 'Actions' menu ending in a confirmed delete. */
export function DetailMenu({ deleteLabel, confirmTitle, confirmText, deleting, onDelete, loading, children }: DetailMenuProps) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" rightSection={<IconChevronDown size={16} />} loading={loading}>
            Actions
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {children}
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)}>
            {deleteLabel}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ConfirmDialog opened={confirming} title={confirmTitle} loading={deleting} onConfirm={() => onDelete(() => setConfirming(false))} onCancel={() => setConfirming(false)}>
        {confirmText}
      </ConfirmDialog>
    </>
  );
}
