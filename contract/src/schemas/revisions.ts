import { z } from 'zod';
import { defineRoute } from '../route';
import { AppName } from './app';
import { ProjectPlan } from './project';

/**
 * What made a revision: an up through Berth, a git deploy, auto-update, a rollback; an app's form
 * deploy or edit, its rename or resources changed in place, its one-click update.
 */
export const REVISION_SOURCES = [
  'up',
  'git',
  'auto-update',
  'rollback',
  'deploy',
  'edit',
  'rename',
  'resources',
  'update',
] as const;
export const RevisionSource = z.enum(REVISION_SOURCES);
export type RevisionSource = z.infer<typeof RevisionSource>;
export const RevisionOutcome = z.enum(['success', 'failed']);
export type RevisionOutcome = z.infer<typeof RevisionOutcome>;

/** One service's image as the deploy resolved it: the reference in the file and the digest its container ran. */
export const RevisionImage = z.object({
  service: z.string(),
  image: z.string().nullable(),
  /** `repo@sha256:…` of the image the container ran (null: built here, or never pushed to a registry). */
  digest: z.string().nullable(),
});
export type RevisionImage = z.infer<typeof RevisionImage>;

const RevisionBase = z.object({
  /** 1, 2, 3 … per project (or app) in this environment; numbers are never reused after retention trims. */
  rev: z.number().int(),
  created_at: z.string(),
  created_by: z.string(),
  source: RevisionSource,
  outcome: RevisionOutcome,
  /** Why it failed (or what a rollback restored); null when there is nothing to say. */
  detail: z.string().nullable(),
  /** The revision this one rolled back to. */
  rollback_of: z.number().int().nullable(),
});

export const ProjectRevision = RevisionBase.extend({
  /** The git commit deployed, for a git-backed project. */
  commit: z.string().nullable(),
  images: z.array(RevisionImage),
});
export type ProjectRevision = z.infer<typeof ProjectRevision>;

export const ProjectRevisionDetail = ProjectRevision.extend({
  compose_file: z.string(),
  content: z.string(),
  /** The .env as deployed: values for admins, `KEY=••••` for everyone else; null when there was none. */
  env: z.string().nullable(),
  /** Whether `env` carries its values. */
  env_values: z.boolean(),
});
export type ProjectRevisionDetail = z.infer<typeof ProjectRevisionDetail>;

/** What changed from revision `a` to revision `b`. */
export const ProjectRevisionDiff = z.object({
  from: ProjectRevisionDetail,
  to: ProjectRevisionDetail,
  /** The compose file as a unified diff (both texts are in `from`/`to`). */
  patch: z.string(),
  /** .env keys: names only (the values are in `from.env`/`to.env` for admins). */
  env: z.object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) }),
  /** Services whose image reference or digest differ. */
  images: z.array(z.object({ service: z.string(), from: RevisionImage.nullable(), to: RevisionImage.nullable() })),
});
export type ProjectRevisionDiff = z.infer<typeof ProjectRevisionDiff>;

export const RollbackBody = z.strictObject({
  /** Only work out and return the plan (for the confirmation); nothing changes. */
  dry_run: z.boolean().default(false),
});
export type RollbackBody = z.infer<typeof RollbackBody>;

export const ProjectRollbackResult = z.object({
  /** What up does with the revision's files and pins (the confirm dialog shows it before anything changes). */
  plan: ProjectPlan,
  /** The revision recorded by the rollback; null on a dry run. */
  revision: ProjectRevision.nullable(),
  output: z.string(),
});
export type ProjectRollbackResult = z.infer<typeof ProjectRollbackResult>;

export const AppRevision = RevisionBase.extend({
  image: z.string(),
  digest: z.string().nullable(),
});
export type AppRevision = z.infer<typeof AppRevision>;

export const AppRollbackResult = z.object({
  id: z.string(),
  name: z.string(),
  revision: AppRevision,
});
export type AppRollbackResult = z.infer<typeof AppRollbackResult>;

const ProjectParams = z.object({ name: z.string() });
const RevParams = ProjectParams.extend({ rev: z.coerce.number().int().min(1) });
const DiffParams = ProjectParams.extend({ a: z.coerce.number().int().min(1), b: z.coerce.number().int().min(1) });
const AppParams = z.object({ name: AppName });
const AppRevParams = AppParams.extend({ rev: z.coerce.number().int().min(1) });

export const revisionsApi = {
  projectList: defineRoute({
    method: 'GET',
    path: '/api/compose/{name}/revisions',
    scope: 'environment',
    tag: 'projects',
    summary: "The project's recorded deploys, newest first",
    role: 'viewer',
    params: ProjectParams,
    response: z.array(ProjectRevision),
  }),
  projectGet: defineRoute({
    method: 'GET',
    path: '/api/compose/{name}/revisions/{rev}',
    scope: 'environment',
    tag: 'projects',
    summary: 'One revision: its compose file, .env (values for admins only) and image digests',
    role: 'viewer',
    params: RevParams,
    response: ProjectRevisionDetail,
  }),
  projectDiff: defineRoute({
    method: 'GET',
    path: '/api/compose/{name}/revisions/{a}/diff/{b}',
    scope: 'environment',
    tag: 'projects',
    summary: 'What changed between two revisions: file diff, .env keys (values for admins only), image digests',
    role: 'viewer',
    params: DiffParams,
    response: ProjectRevisionDiff,
  }),
  projectRollback: defineRoute({
    method: 'POST',
    path: '/api/compose/{name}/revisions/{rev}/rollback',
    scope: 'environment',
    tag: 'projects',
    summary:
      "Write the revision's files back, pin each service to its recorded digest, up, wait on the health gate; recorded as a new revision (dry_run: the plan only)",
    role: 'operator',
    params: RevParams,
    body: RollbackBody,
    response: ProjectRollbackResult,
  }),
  appList: defineRoute({
    method: 'GET',
    path: '/api/apps/{name}/revisions',
    scope: 'environment',
    tag: 'apps',
    summary: "The app's recorded deploys and edits through the form, newest first",
    role: 'viewer',
    params: AppParams,
    response: z.array(AppRevision),
  }),
  appRollback: defineRoute({
    method: 'POST',
    path: '/api/apps/{name}/revisions/{rev}/rollback',
    scope: 'environment',
    tag: 'apps',
    summary: 'Recreate the app exactly as that revision ran it (its full spec, pinned to its image digest)',
    role: 'operator',
    params: AppRevParams,
    response: AppRollbackResult,
  }),
};
