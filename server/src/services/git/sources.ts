import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FromGitBody, FromGitResult, GitDeployResult, GitPullResult, GitStatus } from '@berth/contract';
import type { Uses } from '../../context';
import { COMPOSE_FILE_NAMES, checkProjectName, composeRoot, resolveProject } from '../../compose/paths';
import { checkComposeSchema } from '../../compose/document';
import { runCompose } from '../../compose/project-cli';
import type { GitRepo, GitSourceRow } from '../../db/git-repo';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import { writeFileAtomic } from '../../lib/atomic-write';
import { seal } from '../../lib/secret-box';
import type { Actor } from '../policy';
import { checkEnvText } from '../projects/project-env';
import type { ProjectsService } from '../projects/projects';
import type { ProjectActionsService } from '../projects/projects-actions';
import type { ProjectPlanService } from '../projects/project-plan';
import { Checkout, checkRef, checkRemoteUrl, type GitSource } from './checkout';
import type { GitCredentialsService } from './credentials';

/** What a git-backed project needs of its environment. */
export interface GitScope {
  id: string;
  composeDir: string;
  projects: ProjectsService;
  projectActions: ProjectActionsService;
  projectPlan: ProjectPlanService;
}

/** The largest .env a repository may hand a project. */
const MAX_ENV_BYTES = 64 * 1024;

/** Git-backed compose projects: created from a repository, fetched, checked out, planned and deployed. */
export class GitSourcesService {
  constructor(
    private readonly ctx: Uses<'log', 'cliEnv' | 'dataDir' | 'gitTimeoutMs' | 'gitMaxBytes'>,
    private readonly repo: GitRepo,
    private readonly credentials: GitCredentialsService,
    private readonly hookKey: Uint8Array,
  ) {}

  private get tmpRoot(): string {
    return path.join(this.ctx.config.dataDir, '.tmp', 'git');
  }

  private checkout(folder: string): Checkout {
    return new Checkout(
      folder,
      {
        timeoutMs: this.ctx.config.gitTimeoutMs,
        maxBytes: this.ctx.config.gitMaxBytes,
        pathVar: this.ctx.config.cliEnv.PATH ?? '/usr/bin:/bin',
      },
      this.tmpRoot,
    );
  }

  private source(row: Pick<GitSourceRow, 'url' | 'ref' | 'credential_id'>): GitSource {
    return { url: row.url, ref: row.ref, auth: this.credentials.auth(row.credential_id) };
  }

  /** The project's source and its folder; 404 when the project is not from git (or its folder is gone). */
  async find(scope: GitScope, name: string): Promise<{ row: GitSourceRow; co: Checkout }> {
    checkProjectName(name);
    const row = this.repo.source(scope.id, name);
    const p = await resolveProject(scope.composeDir, name);
    if (!row || !p.exists) throw new NotFoundError('git-backed project', name);
    return { row, co: this.checkout(p.folder) };
  }

  /** POST /api/compose/from-git: fetches only the ref into a hidden folder, checks the file like any save, then moves it in. */
  async create(scope: GitScope, body: FromGitBody, actor: Actor): Promise<FromGitResult> {
    checkProjectName(body.name);
    checkRemoteUrl(body.url);
    checkRef(body.ref);
    if (body.credential_id !== undefined) this.credentials.exists(body.credential_id);
    const root = (await composeRoot(scope.composeDir, true))!;
    if ((await resolveProject(scope.composeDir, body.name)).exists)
      throw new ConflictError(`Project ${body.name} already exists.`);
    const lock = scope.projects.activity.begin(body.name, 'git clone', null, { quiet: true });
    const staging = path.join(root, `.berth-git-${randomBytes(6).toString('hex')}`);
    const folder = path.join(root, body.name);
    const row: GitSourceRow = {
      environment: scope.id,
      name: body.name,
      url: body.url,
      ref: body.ref,
      path: body.path ?? '',
      env_file: body.env_file ?? null,
      credential_id: body.credential_id ?? null,
      sync_policy: body.sync.policy,
      poll_minutes: body.sync.policy === 'poll' ? body.sync.interval_minutes : null,
      hook_id: null,
      deployed_commit: null,
      latest_commit: null,
      last_fetch_at: new Date().toISOString(),
      last_error: null,
      created_at: new Date().toISOString(),
    };
    let moved = false;
    try {
      const co = this.checkout(staging);
      // The default file is looked for once the ref is there; the marker names it.
      const src = this.source(row);
      const { knownHosts } = await co.clone(src, body.path ?? COMPOSE_FILE_NAMES[0]);
      this.credentials.keepKnownHosts(row.credential_id, knownHosts);
      row.path = body.path ?? (await defaultComposePath(staging));
      await fs.writeFile(path.join(staging, '.git', 'berth-compose'), `${row.path}\n`);
      row.latest_commit = await co.head();
      await fs.rename(staging, folder);
      moved = true;
      await this.prepare(scope, row, actor);
    } catch (err) {
      await fs.rm(moved ? folder : staging, { recursive: true, force: true });
      throw err;
    } finally {
      lock.end(true, null);
    }
    const secret = row.sync_policy === 'webhook' ? this.attachHook(row) : null;
    this.repo.putSource(row);
    return { name: row.name, git: await this.status(scope, row.name, false), webhook_secret: secret, warnings: [] };
  }

  /** The repository's webhook (one per URL, shared by its projects): a new one's secret is returned, once. */
  private attachHook(row: GitSourceRow): string | null {
    const existing = this.repo.hookForUrl(row.url);
    if (existing) {
      row.hook_id = existing.id;
      return null;
    }
    const secret = randomBytes(24).toString('base64url');
    const id = randomBytes(16).toString('hex');
    this.repo.insertHook({
      id,
      url: row.url,
      secret_sealed: seal(this.hookKey, secret),
      created_at: new Date().toISOString(),
    });
    row.hook_id = id;
    return secret;
  }

  /**
   * The checked-out files made the project's: the repository's env file copied to the project's
   * .env, then the compose file judged as any save is (YAML limits, schema, file references and
   * the operator policy for `actor`, then the CLI's own `config -q`).
   */
  private async prepare(scope: GitScope, row: GitSourceRow, actor: Actor): Promise<void> {
    const p = await scope.projects.resolveExisting(row.name);
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
    const { parsed } = await scope.projects.parseExisting(p);
    checkComposeSchema(parsed);
    await scope.projects.judge(p, actor);
    await runCompose(scope.projects.runner(), p, ['config', '-q'], () => {});
  }

  /** GET /api/compose/{name}/git: null for a project not from git (404 for no project). */
  async gitState(scope: GitScope, name: string): Promise<GitStatus | null> {
    checkProjectName(name);
    if (this.repo.source(scope.id, name)) return this.status(scope, name);
    await scope.projects.resolveExisting(name);
    return null;
  }

  /** A git-backed project's state: fetches (unless `fetch` is false) and compares. */
  async status(scope: GitScope, name: string, fetch = true): Promise<GitStatus> {
    const found = await this.find(scope, name);
    const co = found.co;
    let row = found.row;
    if (fetch) row = await this.fetch(scope, row, co).catch(() => this.repo.source(scope.id, name)!);
    const head = await co.head();
    const latest = row.latest_commit;
    const edited = await co.edited().catch(() => []);
    return {
      remote: row.url,
      ref: row.ref,
      path: row.path,
      env_file: row.env_file,
      credential_id: row.credential_id,
      sync:
        row.sync_policy === 'poll'
          ? { policy: 'poll', interval_minutes: row.poll_minutes ?? 60 }
          : { policy: row.sync_policy },
      head_commit: head,
      deployed_commit: row.deployed_commit,
      latest_commit: latest,
      behind: head && latest ? await co.count(head, latest) : null,
      ahead: head && latest ? await co.count(latest, head) : null,
      local_edits: edited.length > 0,
      edited_files: edited,
      last_fetch_at: row.last_fetch_at,
      last_error: row.last_error,
      webhook_url: row.hook_id ? `/api/hooks/git/${row.hook_id}` : null,
    };
  }

  /** Fetches the ref; the outcome (newest commit, or git's words) is kept on the source. */
  async fetch(scope: GitScope, row: GitSourceRow, co: Checkout): Promise<GitSourceRow> {
    const at = new Date().toISOString();
    try {
      const { latest, knownHosts } = await co.fetch(this.source(row));
      this.credentials.keepKnownHosts(row.credential_id, knownHosts);
      this.repo.patchSource(scope.id, row.name, { latest_commit: latest, last_fetch_at: at, last_error: null });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.repo.patchSource(scope.id, row.name, { last_fetch_at: at, last_error: message });
      throw err;
    }
    return this.repo.source(scope.id, row.name)!;
  }

  /**
   * Fetches and checks the newest commit out (refused over local edits: Berth never pushes them
   * back, and a checkout would lose them); a commit whose files fail the checks is not kept.
   */
  private async update(scope: GitScope, name: string, actor: Actor): Promise<void> {
    const { row: old, co } = await this.find(scope, name);
    const lock = scope.projects.activity.begin(name, 'git pull', null, { quiet: true });
    try {
      const row = await this.fetch(scope, old, co);
      const edited = await co.edited();
      if (edited.length)
        throw new ConflictError(
          `Project ${name} has local edits (${edited.slice(0, 5).join(', ')}); discard them first. Berth does not push edits back to the repository.`,
        );
      const before = await co.head();
      if (!row.latest_commit || row.latest_commit === before) return;
      await co.checkout(row.latest_commit);
      try {
        await this.prepare(scope, row, actor);
      } catch (err) {
        if (before) await co.checkout(before);
        await this.prepare(scope, row, actor).catch(() => undefined);
        throw err;
      }
    } finally {
      lock.end(true, null);
    }
  }

  /** POST …/git/pull: fetch, check out, plan (nothing starts). */
  async pull(scope: GitScope, name: string, actor: Actor): Promise<GitPullResult> {
    await this.update(scope, name, actor);
    return { git: await this.status(scope, name, false), plan: await scope.projectPlan.plan(name) };
  }

  /** POST …/git/deploy: fetch, check out, plan, up; the commit that went up is the deployed one. */
  async deploy(scope: GitScope, name: string, actor: Actor): Promise<GitDeployResult> {
    await this.update(scope, name, actor);
    const plan = await scope.projectPlan.plan(name);
    const { co } = await this.find(scope, name);
    const commit = await co.head();
    // The up is recorded as a revision of source git, with the commit it deploys.
    const result = await scope.projectActions.run(name, 'up', null, actor, { source: 'git', commit });
    if (commit) this.repo.patchSource(scope.id, name, { deployed_commit: commit });
    return { git: await this.status(scope, name, false), plan, result };
  }

  /** POST …/git/discard: the editor's edits undone (back to the checked-out commit). */
  async discard(scope: GitScope, name: string, actor: Actor): Promise<GitStatus> {
    const { row, co } = await this.find(scope, name);
    const lock = scope.projects.activity.begin(name, 'git discard', null, { quiet: true });
    try {
      await co.discard();
      await this.prepare(scope, row, actor);
    } finally {
      lock.end(true, null);
    }
    return this.status(scope, name, false);
  }
}

/** The first of the usual compose file names at the repository's root. */
async function defaultComposePath(folder: string): Promise<string> {
  for (const f of COMPOSE_FILE_NAMES) {
    const st = await fs.lstat(path.join(folder, f)).catch(() => null);
    if (st?.isFile()) return f;
  }
  throw new ValidationError(`The repository has none of ${COMPOSE_FILE_NAMES.join(', ')} at its root; give its path.`, [
    { field: 'path', message: 'No compose file at the repository root.' },
  ]);
}
