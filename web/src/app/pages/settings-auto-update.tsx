import { Stack } from '@mantine/core';
import { autoUpdateApi } from '@berth/contract';
import { PageHeader } from '../../components/PageHeader';
import { EditableBy } from '../../components/RoleGate';
import { AutoUpdatePolicyForm, AutoUpdateRuns } from '../../features/auto-update';
import { AutoHealDefaultCard } from '../../features/auto-heal';

/** /settings/auto-update */
export default function SettingsAutoUpdatePage() {
  return (
    <>
      <PageHeader
        title="Auto-update"
        subtitle="Check apps and compose services for new images on a schedule; updates that come up unhealthy are rolled back."
      />
      <Stack>
        <EditableBy route={autoUpdateApi.put}>
          <AutoUpdatePolicyForm />
        </EditableBy>
        <AutoUpdateRuns />
        <AutoHealDefaultCard />
      </Stack>
    </>
  );
}
