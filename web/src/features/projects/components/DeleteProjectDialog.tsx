import { ConfirmDialog } from '../../../components/ConfirmDialog';

/** Spec: 'Delete {name} project?' with the permanent-deletion warning. */
export function DeleteProjectDialog({
  name,
  opened,
  loading,
  onConfirm,
  onCancel,
}: {
  name: string;
  opened: boolean;
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      opened={opened}
      title={`Delete ${name} project?`}
      loading={loading}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      The project directory and all files within it will be permanently deleted. This action cannot be revoked.
    </ConfirmDialog>
  );
}
