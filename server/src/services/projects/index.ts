import type { Uses } from '../../context';
import type { PolicyGate } from '../policy';
import { ProjectEnvService } from './project-env';
import { ProjectPlanService } from './project-plan';
import { ProjectsService } from './projects';
import { ProjectActionsService, type ComposeFailure } from './projects-actions';
import { ProjectRevisions } from '../revisions/project-revisions';
import { ProjectRollback } from '../revisions/project-rollback';
import type { RevisionStore } from '../revisions/store';

export interface ProjectsOptions {
  /** Host paths of bind mounts are checked only where they are Berth's own to read (the engine it runs beside). */
  checkBinds: boolean;
  /** Told of every compose action that failed. */
  onFailed: (f: ComposeFailure) => void;
  /** The environment's policy: every document handed to the CLI is judged for its actor. */
  policy: PolicyGate;
  /** The environment's id and the revision store: every up is recorded (issue 34). */
  environment: string;
  revisions: RevisionStore;
  /** Keeps the last log lines of a project's containers (of one service) before the CLI removes them. */
  keepLogs?: (project: string, service: string | null) => Promise<void>;
  /** Told of a project deleted (its git source is forgotten). */
  onDeleted?: (name: string) => void;
}

/** One environment's compose projects: the project store over its compose folder, their actions, plan and `.env`. */
export function createProjects(
  ctx: Uses<
    'compose' | 'docker' | 'log' | 'onClose' | 'registryAuth' | 'remoteEngine',
    'cliEnv' | 'composeDir' | 'composeTimeoutMs' | 'dataDir'
  >,
  opts: ProjectsOptions,
) {
  const projects = new ProjectsService(ctx, opts.policy);
  const projectRevisions = new ProjectRevisions(ctx, opts.environment, opts.revisions, projects);
  const projectPlan = new ProjectPlanService(ctx, projects, opts.checkBinds);
  const projectEnv = new ProjectEnvService(ctx, projects);
  return {
    projects,
    projectRevisions,
    projectActions: new ProjectActionsService(
      ctx,
      projects,
      opts.onFailed,
      projectRevisions,
      opts.keepLogs,
      opts.onDeleted,
    ),
    projectPlan,
    projectEnv,
    projectRollback: new ProjectRollback(ctx, projects, projectEnv, projectPlan, projectRevisions),
  };
}
