import { Stack } from '@mantine/core';
import { ImportExportCard } from '../../features/settings/components/ImportExportCard';
import { ServerInfoCard } from '../../features/settings/components/ServerInfoCard';

/** /settings/info: import and export of settings, and what Berth runs on. */
export default function SettingsInfoPage() {
  return (
    <Stack gap="md" maw={900}>
      <ImportExportCard />
      <ServerInfoCard />
    </Stack>
  );
}
