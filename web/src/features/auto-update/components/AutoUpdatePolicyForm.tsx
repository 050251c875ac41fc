import { useEffect, useState } from 'react';
import { Alert, Button, Group, NumberInput, SegmentedControl, Select, Stack, Switch, Text } from '@mantine/core';
import { autoUpdateApi, type AutoUpdateMode, type AutoUpdatePolicy, type VersionPolicy } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { Section } from '../../../components/Section';
import { errorMessage, notifyInfo, notifySuccess } from '../../../lib/notify';
import { useAutoUpdateSettings, useSaveAutoUpdate } from '../api';
import { ScheduleField } from './ScheduleField';
import { VERSION_POLICY_OPTIONS } from '../model';

const OFF =
  'The switch is off: nothing will run on this schedule, except for apps and projects switched on by their own setting or label.';

/** Settings → Auto-update: the global policy (every app's default) and when it runs next. */
export function AutoUpdatePolicyForm() {
  const settings = useAutoUpdateSettings();
  const save = useSaveAutoUpdate();
  const [draft, setDraft] = useState<AutoUpdatePolicy | null>(null);
  useEffect(() => {
    if (settings.data && !draft) {
      const { enabled, mode, schedule, settle_seconds, version_policy } = settings.data;
      setDraft({ enabled, mode, schedule, settle_seconds, version_policy });
    }
  }, [settings.data, draft]);
  if (settings.error) return <Alert color="red">{errorMessage(settings.error)}</Alert>;
  if (!draft || !settings.data) return null;
  const set = (patch: Partial<AutoUpdatePolicy>) => setDraft({ ...draft, ...patch });
  const saved = (p: AutoUpdatePolicy) =>
    p.enabled ? notifySuccess('Auto-update policy saved.') : notifyInfo(OFF, 'Auto-update policy saved');

  return (
    <Section title="Policy">
      <Stack>
        <Switch
          label="Check apps and compose services for new images on a schedule"
          checked={draft.enabled}
          onChange={(e) => set({ enabled: e.currentTarget.checked })}
        />
        <div>
          <Text size="sm" fw={500} mb={4} id="auto-update-mode">
            Mode
          </Text>
          <SegmentedControl
            aria-labelledby="auto-update-mode"
            value={draft.mode}
            onChange={(v) => set({ mode: v as AutoUpdateMode })}
            data={[
              { value: 'notify', label: 'Notify only' },
              { value: 'update', label: 'Update' },
            ]}
          />
        </div>
        <ScheduleField
          description='A cron expression: minute hour day month weekday, e.g. "0 4 * * *" (04:00 every day).'
          value={draft.schedule}
          onChange={(schedule) => set({ schedule })}
          testId="auto-update-next-run"
        />
        <Select
          label="Versions"
          description="Which newer images an update takes: the same tag, or a newer version tag (1.4.2, v1.4, 1.4.2-alpine) in a range."
          allowDeselect={false}
          value={draft.version_policy}
          onChange={(v) => set({ version_policy: v as VersionPolicy })}
          data={VERSION_POLICY_OPTIONS}
        />
        <NumberInput
          label="Settle time (seconds)"
          description="An app without a health check must run this long without restarting, else the update is rolled back."
          min={1}
          max={3600}
          value={draft.settle_seconds}
          onChange={(v) => set({ settle_seconds: typeof v === 'number' ? v : Number(v) || 1 })}
        />
        {save.error && <Alert color="red">{errorMessage(save.error)}</Alert>}
        <Can route={autoUpdateApi.put}>
          <Group>
            <Button loading={save.isPending} onClick={() => save.mutate(draft, { onSuccess: saved })}>
              Save
            </Button>
            {!draft.enabled && (
              <Text size="sm" c="dimmed">
                {OFF}
              </Text>
            )}
          </Group>
        </Can>
      </Stack>
    </Section>
  );
}
