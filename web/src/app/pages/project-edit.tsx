import { Alert, Loader, Stack } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { useProject } from '../../features/projects/api/queries';
import { ProjectEditForm } from '../../features/projects/components/ProjectEditForm';
import { ProjectEnvCard } from '../../features/projects/components/ProjectEnvCard';
import { NEW_PROJECT } from '../../features/projects/model';
import { errorMessage } from '../../lib/notify';

/** /projects/{name}/edit, or /projects/_/edit for a new project. */
export default function ProjectEditPage() {
  const name = useParams().projectName ?? NEW_PROJECT;
  const isNew = name === NEW_PROJECT || name === '';
  const project = useProject(name, { enabled: !isNew, poll: false });
  if (isNew) return <ProjectEditForm name="" isNew initial="" />;
  if (project.error) {
    return (
      <Alert color="red" title="The project could not be read">
        {errorMessage(project.error)}
      </Alert>
    );
  }
  // Keyed by name so the editor starts from the file once it has loaded (later polls do not overwrite typing).
  if (!project.data) return <Loader size="sm" />;
  return (
    <Stack gap="md">
      <ProjectEditForm
        key={name}
        name={name}
        isNew={false}
        initial={project.data.content}
        running={project.data.status.runningContainers > 0}
      />
      <ProjectEnvCard name={name} />
    </Stack>
  );
}
