import { MIN_SCHEDULE_INTERVAL_MS } from '@berth/contract/cron';
import { CronField } from '../../../components/CronField';
import { useAutoUpdateSettings } from '../api';

/** The auto-update schedule: the policy's shortest interval and time zone (each run pulls every image it covers). */
export function ScheduleField(props: {
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  description?: string;
  testId?: string;
}) {
  const settings = useAutoUpdateSettings().data;
  const minSeconds = settings?.min_interval_seconds ?? MIN_SCHEDULE_INTERVAL_MS / 1000;
  return (
    <CronField
      {...props}
      minIntervalMs={minSeconds * 1000}
      timeZone={settings?.time_zone}
      tooOftenNote="Each run pulls every image it covers."
    />
  );
}
