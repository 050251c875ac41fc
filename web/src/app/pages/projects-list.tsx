import { Alert } from '@mantine/core';
import { useProjectBusyTexts } from '../../features/projects/api/mutations';
import { useProjects } from '../../features/projects/api/queries';
import { ProjectsTable } from '../../features/projects/components/ProjectsTable';
import { errorMessage } from '../../lib/notify';

/** /projects: the compose projects under COMPOSE_DIR. */
export default function ProjectsListPage() {
  const projects = useProjects();
  const busy = useProjectBusyTexts();
  return (
    <>
      {projects.error && (
        <Alert color="red" mb="sm" title="The projects could not be read">
          {errorMessage(projects.error)}
        </Alert>
      )}
      <ProjectsTable projects={projects.data} loading={projects.isLoading} busy={busy} />
    </>
  );
}
