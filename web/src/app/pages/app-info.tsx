import { SimpleGrid, Stack } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { useApp } from '../../features/apps/api/queries';
import { AppAutoUpdatePanel } from '../../features/auto-update';
import { AutoHealPanel } from '../../features/auto-heal';
import { AppAdvanced } from '../../features/apps/components/AppAdvanced';
import { AppDiagnosis } from '../../features/apps/components/AppDiagnosis';
import { AppHealth } from '../../features/apps/components/AppHealth';
import { AppEnvironment, AppLabels } from '../../features/apps/components/AppConfigTables';
import { AppNetworking } from '../../features/apps/components/AppNetworking';
import { AppResources } from '../../features/apps/components/AppResources';
import { AppRevisions } from '../../features/apps/components/AppRevisions';
import { AppStorage } from '../../features/apps/components/AppStorage';
import { AppSummary } from '../../features/apps/components/AppSummary';
import { AppLoading } from '../../features/apps/components/RunningOnly';
import { isBerthImage, projectOf } from '../../features/apps/model';
import { AppEventsCard } from '../../features/events';

/** /apps/:appName/info */
export default function AppInfoPage() {
  const { appName = '' } = useParams();
  const { data: app } = useApp(appName);
  if (!app) return <AppLoading />;
  return (
    <Stack>
      <AppSummary app={app} />
      <AppDiagnosis app={app} />
      <AppHealth app={app} />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <AppNetworking app={app} />
        <AppStorage app={app} />
      </SimpleGrid>
      <AppResources key={app.Id + app.name} app={app} />
      <AppEnvironment app={app} />
      <AppLabels app={app} />
      <AppAdvanced app={app} />
      {/* Berth never auto-updates itself (Settings → Update is its path); a compose container is updated through its project's panel. */}
      {!isBerthImage(app) && !projectOf(app) && <AppAutoUpdatePanel name={app.name} />}
      {/* Berth never restarts itself; a compose container's auto-heal is its service's, on the project's page. */}
      {!isBerthImage(app) && !projectOf(app) && <AutoHealPanel name={app.name} />}
      <AppRevisions name={app.name} />
      <AppEventsCard name={app.name} />
    </Stack>
  );
}
