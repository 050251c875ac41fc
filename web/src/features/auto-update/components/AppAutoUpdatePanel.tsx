import { autoUpdateApi } from '@berth/contract';
import { useAppAutoUpdate, useSaveAppAutoUpdate } from '../api';
import { AutoUpdatePanel } from './AutoUpdatePanel';

/** An app's auto-update override (empty fields follow Settings → Auto-update) and its last result. */
export function AppAutoUpdatePanel({ name }: { name: string }) {
  return (
    <AutoUpdatePanel
      name={name}
      query={useAppAutoUpdate(name)}
      save={useSaveAppAutoUpdate(name)}
      route={autoUpdateApi.putApp}
    />
  );
}
