import { useState } from 'react';
import { Button, Card, FileInput, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconFileUpload, IconUpload } from '@tabler/icons-react';
import { settingsApi } from '@berth/contract';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PasswordField } from '../../../components/PasswordField';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCan, useSession } from '../../../lib/session';
import { exportSettings, importFileError, plural, useImportSettings, useImportTargets } from '../api';

/** Server Settings: import a settings file (replaces templates and variables) or export them, as the role allows. */
export function ImportExportCard() {
  const [file, setFile] = useState<File | null>(null);
  const [touched, setTouched] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [current, setCurrent] = useState('');
  const { authDisabled } = useSession();
  const importer = useImportSettings();
  const canImport = useCan(settingsApi.import);
  const canExport = useCan(settingsApi.export);
  const problem = importFileError(file);
  const needsPassword = !authDisabled && current === '';
  const [confirming, setConfirming] = useState(false);
  const targets = useImportTargets(confirming);

  const runImport = () =>
    file &&
    importer.mutate(
      { file, currentPassword: current },
      {
        onSuccess: (r) => {
          notifySuccess(
            `${r.success}: ${plural(r.templates, 'template')} with ${plural(r.items, 'item')}, ${plural(r.variables, 'variable')}.`,
          );
          setFile(null);
          setCurrent('');
          setTouched(false);
        },
        onSettled: () => setConfirming(false),
      },
    );

  const runExport = async () => {
    setExporting(true);
    try {
      await exportSettings();
    } catch (err) {
      notifyError(err);
    } finally {
      setExporting(false);
    }
  };

  if (!canImport && !canExport) return null;
  return (
    <Card withBorder style={{ background: 'var(--berth-surface)' }}>
      <Title order={3} size="h5" mb="xs">
        Server Settings
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Export saves the template sources (with their items) and the template variables as one JSON file; users, API
        keys and secrets are never in it. Importing a file replaces all templates and variables with the file's.
      </Text>
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          {canImport && (
            <>
              <FileInput
                label="Settings file"
                placeholder="berth-settings.json"
                // Mantine's placeholder grey is too faint (2:1) for this shown-as-text hint; dimmed meets AA.
                styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
                accept=".json,application/json"
                required
                clearable
                leftSection={<IconFileUpload size={16} />}
                value={file}
                onChange={(f) => {
                  setFile(f);
                  setTouched(true);
                }}
                error={touched && problem ? problem : undefined}
                w={320}
              />
              {!authDisabled && (
                <PasswordField
                  label="Current Password"
                  required
                  autoComplete="current-password"
                  value={current}
                  onChange={(e) => setCurrent(e.currentTarget.value)}
                  w={240}
                />
              )}
              <Button
                leftSection={<IconUpload size={16} />}
                disabled={problem !== null || needsPassword}
                loading={importer.isPending}
                onClick={() => setConfirming(true)}
              >
                Import
              </Button>
            </>
          )}
          {canExport && (
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              loading={exporting}
              onClick={() => void runExport()}
            >
              Export
            </Button>
          )}
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title="Replace templates and variables?"
        confirmLabel="Replace"
        loading={importer.isPending}
        confirmDisabled={!targets.data}
        onConfirm={() => void runImport()}
        onCancel={() => setConfirming(false)}
      >
        {targets.data
          ? `The import replaces the ${plural(targets.data.templates, 'template source')} (with their items) and the ${plural(targets.data.variables, 'template variable')} on this server with the ones in ${file?.name ?? 'the file'}. Users, API keys and other settings stay.`
          : targets.error
            ? targets.error.message
            : 'Reading what the import would replace…'}
      </ConfirmDialog>
    </Card>
  );
}
