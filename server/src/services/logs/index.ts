import type { Uses } from '../../context';
import type { EngineEvents } from '../../docker/events';
import type { ProjectsService } from '../projects/projects';
import { AppLogsService } from './app-logs';
import type { RegexPool } from './log-search';
import { ProjectLogsService } from './project-logs';

/** One environment's logs: an app's (search, download) and a project's merged ones (live and download). */
export function createLogs(
  ctx: Uses<'docker' | 'log'>,
  events: EngineEvents,
  projects: ProjectsService,
  regexPool: RegexPool,
) {
  return { appLogs: new AppLogsService(ctx, regexPool), projectLogs: new ProjectLogsService(ctx, events, projects) };
}
