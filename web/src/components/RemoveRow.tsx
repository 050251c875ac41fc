import type { ReactNode } from 'react';
import { Button } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { notifySuccess } from '../lib/notify';
import { ConfirmDialog } from './ConfirmDialog';

/** A table row's small Edit button, named for screen readers by the row it edits. */
export function RowEditButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <Button
      size="compact-sm"
      variant="default"
      leftSection={<IconPencil size={14} />}
      aria-label={`Edit ${name}`}
      onClick={onClick}
    >
      Edit
    </Button>
  );
}

/** A table row's small red Remove (or Delete) button that opens the row's confirmation. */
export function RowRemoveButton({
  name,
  onClick,
  verb = 'Remove',
}: {
  name: string;
  onClick: () => void;
  verb?: 'Remove' | 'Delete';
}) {
  return (
    <Button
      size="compact-sm"
      color="red"
      variant="light"
      leftSection={<IconTrash size={14} />}
      aria-label={`${verb} ${name}`}
      onClick={onClick}
    >
      {verb}
    </Button>
  );
}

/** The removal a confirmation runs: a TanStack mutation taking the row's id. */
interface RemoveMutation<I> {
  isPending: boolean;
  mutate: (id: I, options: { onSuccess: () => void }) => void;
}

export interface RemoveRowDialogProps<I, T extends { id: I; name: string }> {
  /** The row being removed, or null while nothing is asked. */
  item: T | null;
  mutation: RemoveMutation<I>;
  /** What the row is, for the notice: "Registry" → "Registry hub removed." */
  noun?: string;
  /** The confirm button's word: Remove (the default), Delete, Revoke… */
  verb?: string;
  /** The notice when it is done, when "{noun} {name} removed." is not it. */
  done?: (name: string) => string;
  /** The dialog's title when "Remove {name}?" is not it. */
  title?: string;
  onClose: () => void;
  /** What removing it does and does not do. */
  children: ReactNode;
}

/** Asks before removing one named row, runs the removal, says it is done and closes. */
export function RemoveRowDialog<I, T extends { id: I; name: string }>({
  item,
  mutation,
  noun,
  verb = 'Remove',
  title,
  done = (name) => `${noun ?? ''} ${name} ${verb === 'Delete' ? 'deleted' : 'removed'}.`.trimStart(),
  onClose,
  children,
}: RemoveRowDialogProps<I, T>) {
  return (
    <ConfirmDialog
      opened={item !== null}
      title={title ?? `${verb} ${item?.name ?? ''}?`}
      confirmLabel={verb}
      loading={mutation.isPending}
      onCancel={onClose}
      onConfirm={() =>
        item &&
        mutation.mutate(item.id, {
          onSuccess: () => {
            notifySuccess(done(item.name));
            onClose();
          },
        })
      }
    >
      {children}
    </ConfirmDialog>
  );
}
