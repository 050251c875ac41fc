import { useState, type ReactNode } from 'react';
import { ActionIcon, Button, Menu } from '@mantine/core';
import { IconChevronDown, IconDotsVertical, IconEye, IconTrash } from '@tabler/icons-react';
import { useCan, type RouteAccess } from '../lib/session';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * A list row's menu: View, any extra items, Delete (images, volumes, networks share it). Delete is
 * there only for a role that may call `deleteRoute`; extra items that change things are wrapped in `<Can>`.
 */
export function RowMenu({
  name,
  onView,
  onDelete,
  deleteRoute,
  loading,
  children,
}: {
  name: string;
  onView: () => void;
  onDelete: () => void;
  deleteRoute: RouteAccess;
  loading?: boolean;
  children?: ReactNode;
}) {
  const canDelete = useCan(deleteRoute);
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
        {canDelete && (
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={onDelete}>
            Delete
          </Menu.Item>
        )}
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
  /** The delete's contract route: a role that may not call it does not get the menu (its items change things too). */
  deleteRoute: RouteAccess;
  /** Runs the delete; calls `settled` when it is over (either way) so the dialog closes. */
  onDelete: (settled: () => void) => void;
  loading?: boolean;
  /** Items above Delete. */
  children?: ReactNode;
}

/** A detail page's 'Actions' menu ending in a confirmed delete. */
export function DetailMenu({ deleteRoute, ...props }: DetailMenuProps) {
  return useCan(deleteRoute) ? <ActionsMenu {...props} /> : null;
}

function ActionsMenu({
  deleteLabel,
  confirmTitle,
  confirmText,
  deleting,
  onDelete,
  loading,
  children,
}: Omit<DetailMenuProps, 'deleteRoute'>) {
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
      <ConfirmDialog
        opened={confirming}
        title={confirmTitle}
        loading={deleting}
        onConfirm={() => onDelete(() => setConfirming(false))}
        onCancel={() => setConfirming(false)}
      >
        {confirmText}
      </ConfirmDialog>
    </>
  );
}
