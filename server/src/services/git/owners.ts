import fs from 'node:fs/promises';
import path from 'node:path';
import type { ActionResult, ProjectPlan } from '@berth/contract';
import { checkComposeSchema } from '../../compose/document';
import { composeRoot, resolveProject } from '../../compose/paths';
import { runCompose } from '../../compose/project-cli';
import type { GitOwnerKind, GitSourceRow } from '../../db/git-repo';
import { ValidationError } from '../../errors';
import { writeFileAtomic } from '../../lib/atomic-write';
import type { Actor } from '../policy';
import { checkEnvText } from '../projects/project-env';
import type { ProjectsService } from '../projects/projects';
import type { ProjectActionsService } from '../projects/projects-actions';
import type { ProjectPlanService } from '../projects/project-plan';
import { NEXT_STACK_FILE, type SwarmStacksService } from '../swarm/swarm-stacks';

/** The largest .env a repository may hand a project. */
const MAX_ENV_BYTES = 64 * 1024;

/**
 * What a git source feeds, seen the same way for a compose project and a swarm stack: where its
 * checkout lives, its lock, how the checked-out files are judged, planned and deployed.
 */
export interface GitOwner {
  kind: GitOwnerKind;
  /** Files Berth writes into the checkout that are not edits of the repository's. */
  excludes: string[];
  /** The folder the owners' checkouts live in (made when missing): a clone is staged there. */
  root(): Promise<string>;
  /** The owner's checkout folder; null when it has none (no such project or stack). */
  folder(name: string): Promise<string | null>;
  /** Whether the name is taken already. */
  taken(name: string): Promise<boolean>;
  /** Holds the owner's lock (a compose action or stack deploy meanwhile is a 409). */
  lock(name: string, action: string): { end: (ok: boolean, detail: string | null) => void };
  /** The checked-out files made the owner's, judged as any save of it is (throws when they fail). */
  prepare(row: GitSourceRow, actor: Actor): Promise<void>;
  plan(name: string): Promise<ProjectPlan>;
  /** Deploys what is checked out; `commit` is the one that goes up. */
  up(name: string, actor: Actor, commit: string | null): Promise<ActionResult | { name: string; output: string }>;
}

/** What a git-backed project or stack needs of its environment. */
export interface GitScope {
  id: string;
  owner(kind: GitOwnerKind): GitOwner;
}

/** The environment's services a git scope is made of. */
export interface GitScopeParts {
  id: string;
  composeDir: string;
  projects: ProjectsService;
  projectActions: ProjectActionsService;
  projectPlan: ProjectPlanService;
  stacks: SwarmStacksService;
}

function projectOwner(s: GitScopeParts): GitOwner {
  return {
    kind: 'project',
    // The .env Berth writes beside the file is the project's, never an edit of the repository's files.
    excludes: ['.env'],
    root: async () => (await composeRoot(s.composeDir, true))!,
    folder: async (name) => {
      const p = await resolveProject(s.composeDir, name);
      return p.exists ? p.folder : null;
    },
    taken: async (name) => (await resolveProject(s.composeDir, name)).exists,
    lock: (name, action) => s.projects.activity.begin(name, action, null, { quiet: true }),
    /**
     * The repository's env file copied to the project's .env, then the compose file judged as any
     * save is (YAML limits, schema, file references and the operator policy for `actor`, then the
     * CLI's own `config -q`).
     */
    prepare: async (row, actor) => {
      const p = await s.projects.resolveExisting(row.name);
      if (row.env_file !== null) {
        const from = path.join(p.folder, row.env_file);
        const st = await fs.lstat(from).catch(() => null);
        if (!st?.isFile())
          throw new ValidationError(`env_file ${row.env_file} is not a file in the repository.`, [
            { field: 'env_file', message: 'Not a file in the repository.' },
          ]);
        if (st.size > MAX_ENV_BYTES) throw new ValidationError(`env_file ${row.env_file} is larger than 64 KiB.`);
        const text = await fs.readFile(from, 'utf8');
        checkEnvText(text, 'env_file');
        if (path.resolve(from) !== path.join(p.dir, '.env'))
          await writeFileAtomic(path.join(p.dir, '.env'), text, { mode: 0o600 });
      }
      const { parsed } = await s.projects.parseExisting(p);
      checkComposeSchema(parsed);
      await s.projects.judge(p, actor);
      await runCompose(s.projects.runner(), p, ['config', '-q'], () => {});
    },
    plan: (name) => s.projectPlan.plan(name),
    // The up is recorded as a revision of source git, with the commit it deploys.
    up: (name, actor, commit) => s.projectActions.run(name, 'up', null, actor, { source: 'git', commit }),
  };
}

function stackOwner(s: GitScopeParts): GitOwner {
  const root = s.stacks.root;
  return {
    kind: 'stack',
    excludes: [NEXT_STACK_FILE],
    root: async () => {
      await fs.mkdir(root, { recursive: true, mode: 0o700 });
      return root;
    },
    folder: async (name) => {
      const dir = s.stacks.dir(name);
      return (await fs.stat(dir).catch(() => null))?.isDirectory() ? dir : null;
    },
    taken: async (name) => (await s.stacks.list()).some((x) => x.name === name),
    lock: (name, action) => s.stacks.activity.begin(name, action, null, { quiet: true }),
    prepare: async (row, actor) => {
      // `docker stack deploy` reads no .env: interpolation comes from Berth's own environment only.
      if (row.env_file !== null)
        throw new ValidationError('A stack reads no .env file (docker stack deploy does not); leave env_file out.', [
          { field: 'env_file', message: 'Not used by stacks.' },
        ]);
      await s.stacks.check(row.name, actor);
    },
    plan: (name) => s.stacks.plan(name),
    // Through the stack path itself: the policy gate, the file-reference check, --with-registry-auth.
    up: async (name, actor) => s.stacks.deploy(name, await s.stacks.check(name, actor), 'redeploy', actor),
  };
}

/** A git scope over one environment's projects and stacks. */
export function gitScopeOf(parts: GitScopeParts): GitScope {
  const owners = { project: projectOwner(parts), stack: stackOwner(parts) };
  return { id: parts.id, owner: (kind) => owners[kind] };
}
