import { Accordion, Alert, Card, Loader, Tabs, Text, Title } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { ProjectAutoUpdatePanel } from '../../features/auto-update';
import { ProjectAutoHeal } from '../../features/auto-heal';
import { TargetBackupCard } from '../../features/backups';
import { GitStatusCard } from '../../features/git';
import { useActionOutput, useDismissOutput } from '../../features/projects/api/live';
import { useProject } from '../../features/projects/api/queries';
import { ActionOutputCard } from '../../features/projects/components/ActionOutputCard';
import { ProjectHeader } from '../../features/projects/components/ProjectHeader';
import { ProjectInfoCard } from '../../features/projects/components/ProjectInfoCard';
import { ProjectLogs } from '../../features/projects/components/ProjectLogs';
import { ProjectRevisions } from '../../features/projects/components/ProjectRevisions';
import { ServicePanel } from '../../features/projects/components/ServicePanel';
import { serviceHealth, serviceStatus } from '../../features/projects/model';
import { errorMessage } from '../../lib/notify';

/** /projects/{name}: header actions, the live action output; tabs: details with one panel per service, and the merged logs. */
export default function ProjectDetailsPage() {
  const name = useParams().projectName ?? '';
  const project = useProject(name);
  const output = useActionOutput(name, project.data !== undefined);
  const dismissOutput = useDismissOutput(name);
  const services = Object.entries(project.data?.services ?? {});
  return (
    <>
      <ProjectHeader name={name} external={project.data?.external ?? false} />
      {project.error && !project.data && (
        <Alert color="red" mb="sm" title="The project could not be read">
          {errorMessage(project.error)}
        </Alert>
      )}
      {project.isLoading && <Loader size="sm" />}
      <ActionOutputCard output={output} onDismiss={dismissOutput} />
      {project.data && (
        <Tabs defaultValue="overview" keepMounted={false}>
          <Tabs.List mb="sm">
            <Tabs.Tab value="overview">Overview</Tabs.Tab>
            <Tabs.Tab value="logs">Logs</Tabs.Tab>
            <Tabs.Tab value="revisions">Revisions</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="revisions">
            <ProjectRevisions name={name} />
          </Tabs.Panel>
          <Tabs.Panel value="logs">
            <ProjectLogs name={name} services={services.map(([svc]) => svc)} />
          </Tabs.Panel>
          <Tabs.Panel value="overview">
            <GitStatusCard name={name} />
            <ProjectInfoCard project={project.data} />
            <Card withBorder>
              <Title order={3} size="h5" mb="sm">
                Services
              </Title>
              {services.length === 0 ? (
                <Text c="dimmed">No services.</Text>
              ) : (
                <Accordion multiple variant="separated">
                  {services.map(([svc, def]) => (
                    <ServicePanel
                      key={svc}
                      project={name}
                      name={svc}
                      service={def}
                      status={serviceStatus(project.data, svc)}
                      health={serviceHealth(project.data, svc)}
                    />
                  ))}
                </Accordion>
              )}
            </Card>
            <ProjectAutoUpdatePanel name={name} />
            <ProjectAutoHeal project={name} services={services.map(([svc]) => svc)} />
            <TargetBackupCard target={{ kind: 'project', name }} />
          </Tabs.Panel>
        </Tabs>
      )}
    </>
  );
}
