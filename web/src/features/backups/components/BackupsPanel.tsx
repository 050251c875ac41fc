import { Tabs } from '@mantine/core';
import { ArchivesCard } from './ArchivesCard';
import { DestinationsCard } from './DestinationsCard';
import { JobsCard } from './JobsCard';
import { RunsCard } from './RunsCard';

/** The Backups page: jobs, archives per target, runs and destinations. */
export function BackupsPanel() {
  return (
    <Tabs defaultValue="jobs" keepMounted={false}>
      <Tabs.List mb="sm">
        <Tabs.Tab value="jobs">Jobs</Tabs.Tab>
        <Tabs.Tab value="archives">Archives</Tabs.Tab>
        <Tabs.Tab value="runs">Runs</Tabs.Tab>
        <Tabs.Tab value="destinations">Destinations</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="jobs">
        <JobsCard />
      </Tabs.Panel>
      <Tabs.Panel value="archives">
        <ArchivesCard />
      </Tabs.Panel>
      <Tabs.Panel value="runs">
        <RunsCard />
      </Tabs.Panel>
      <Tabs.Panel value="destinations">
        <DestinationsCard />
      </Tabs.Panel>
    </Tabs>
  );
}
