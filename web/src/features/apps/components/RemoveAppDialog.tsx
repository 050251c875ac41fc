import { ConfirmDialog } from '../../../components/ConfirmDialog';

/** The remove confirmation (the spec's text, spelling corrected per DECISIONS.md). */
export function RemoveAppDialog({
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
      title={`Remove ${name}?`}
      confirmLabel="Remove"
      loading={loading}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      All non-persistent data will be removed
    </ConfirmDialog>
  );
}
