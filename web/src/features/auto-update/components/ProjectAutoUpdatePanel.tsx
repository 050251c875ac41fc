import { Group, Stack, Text } from '@mantine/core';
import { autoUpdateApi, type ProjectAutoUpdate } from '@berth/contract';
import { useProjectAutoUpdate, useSaveProjectAutoUpdate } from '../api';
import { AutoUpdatePanel } from './AutoUpdatePanel';
import { ResultBadge } from './AutoUpdateRuns';
import { versionPolicyShort } from '../model';

/** Each service with a container: whether auto-update applies to it (its labels may differ), its schedule and last result. */
function Services({ services }: { services: ProjectAutoUpdate['services'] }) {
  if (services.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No service has a container yet; auto-update checks services once they run.
      </Text>
    );
  return (
    <Stack gap={4} data-testid="auto-update-services">
      {services.map((s) => (
        <Group key={s.name} gap="xs">
          <Text size="sm" fw={500}>
            {s.name}
          </Text>
          <Text size="sm" c="dimmed">
            {`${s.effective.enabled ? 'on' : 'off'}, ${versionPolicyShort(s.effective.version_policy)}, schedule ${s.effective.schedule}`}
            {Object.keys(s.labels).length > 0 &&
              ` (labels: ${Object.entries(s.labels)
                .map(([k, v]) => `${k}=${v}`)
                .join(', ')})`}
          </Text>
          {s.last && <ResultBadge item={s.last} />}
        </Group>
      ))}
    </Stack>
  );
}

/**
 * A compose project's auto-update override (service by service; labels on a service win, e.g.
 * `berth.auto-update.version-policy: minor`) and the last results.
 */
export function ProjectAutoUpdatePanel({ name }: { name: string }) {
  return (
    <AutoUpdatePanel
      name={name}
      query={useProjectAutoUpdate(name)}
      save={useSaveProjectAutoUpdate(name)}
      route={autoUpdateApi.putProject}
    >
      {(data) => <Services services={data.services} />}
    </AutoUpdatePanel>
  );
}
