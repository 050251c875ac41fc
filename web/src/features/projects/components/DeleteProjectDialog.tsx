import { Stack, Text } from '@mantine/core';
import { ConfirmDialog } from '../../../components/ConfirmDialog';

/** Spec: 'Delete {name} project?' with the permanent-deletion warning, and what else goes (the delete runs down first). */
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
      <Stack gap="xs">
        <Text size="sm">
          The project directory and all files within it will be permanently deleted. This action cannot be revoked.
        </Text>
        <Text size="sm">Its containers are stopped and removed, and its default network too; its volumes stay.</Text>
      </Stack>
    </ConfirmDialog>
  );
}
