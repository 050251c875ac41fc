import type { Uses } from '../../context';
import type { AppsService } from '../apps/apps';
import type { AppUpdateService } from '../apps/apps-update';
import type { ProjectsService } from '../projects/projects';
import { AutoUpdateService } from './auto-update';
import type { ProjectRevisions } from '../revisions/project-revisions';

type Announce = NonNullable<ConstructorParameters<typeof AutoUpdateService>[5]>;

/** One environment's scheduled updates of its apps and compose projects, told to the notifications and the audit log. */
export function createAutoUpdate(
  ctx: Uses<
    'composeReady' | 'db' | 'docker' | 'log' | 'registryAuth' | 'registryTags',
    | 'containerName'
    | 'dataDir'
    | 'hostname'
    | 'autoUpdateMinIntervalMs'
    | 'autoUpdateRunsKept'
    | 'autoUpdateRunsMaxAgeMs'
  >,
  environment: string,
  use: {
    apps: AppsService;
    appUpdates: AppUpdateService;
    projects: ProjectsService;
    projectRevisions: ProjectRevisions;
  },
  announce: Announce,
): AutoUpdateService {
  return new AutoUpdateService(
    ctx,
    environment,
    use.apps,
    use.appUpdates,
    use.projects,
    announce,
    use.projectRevisions,
  );
}
