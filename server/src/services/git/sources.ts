import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type {
  FromGitBody,
  FromGitResult,
  GitDeployResult,
  GitPullResult,
  GitSourcePatch,
  GitStatus,
} from '@berth/contract';
import type { Uses } from '../../context';
import { COMPOSE_FILE_NAMES, checkProjectName, GIT_COMPOSE_MARKER } from '../../compose/paths';
import type { GitOwnerKind, GitRepo, GitSourceRow } from '../../db/git-repo';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import { seal } from '../../lib/secret-box';
import type { Actor } from '../policy';
import { Checkout, checkRef, checkRemoteUrl, gitLimits, gitTmpRoot, type GitSource } from './checkout';
import type { GitCredentialsService } from './credentials';
import type { GitOwner, GitScope } from './owners';

const LABEL = { project: 'git-backed project', stack: 'git-backed stack' } as const;

/**
 * Compose projects and swarm stacks from git: created from a repository, fetched, checked out,
 * planned and deployed. What differs between the two is their GitOwner's (owners.ts).
 */
export class GitSourcesService {
  constructor(
    private readonly ctx: Uses<'log', 'cliEnv' | 'dataDir' | 'gitTimeoutMs' | 'gitMaxBytes'>,
    private readonly repo: GitRepo,
    private readonly credentials: GitCredentialsService,
    private readonly hookKey: Uint8Array,
  ) {}

  private checkout(folder: string): Checkout {
    return new Checkout(folder, gitLimits(this.ctx.config), gitTmpRoot(this.ctx.config.dataDir));
  }

  private source(row: Pick<GitSourceRow, 'url' | 'ref' | 'credential_id'>): GitSource {
    return { url: row.url, ref: row.ref, auth: this.credentials.auth(row.credential_id) };
  }

  /** The source and its checkout; 404 when the project (or stack) is not from git, or its folder is gone. */
  async find(
    scope: GitScope,
    kind: GitOwnerKind,
    name: string,
  ): Promise<{ row: GitSourceRow; co: Checkout; owner: GitOwner }> {
    checkProjectName(name);
    const owner = scope.owner(kind);
    const row = this.repo.source(scope.id, kind, name);
    const folder = await owner.folder(name);
    if (!row || !folder) throw new NotFoundError(LABEL[kind], name);
    return { row, co: this.checkout(folder), owner };
  }

  /** POST /api/compose/from-git (and …/swarm/stacks/from-git): fetches only the ref into a hidden folder, checks the file like any save, then moves it in. */
  async create(scope: GitScope, kind: GitOwnerKind, body: FromGitBody, actor: Actor): Promise<FromGitResult> {
    checkProjectName(body.name);
    checkRemoteUrl(body.url);
    checkRef(body.ref);
    if (body.credential_id !== undefined) this.credentials.exists(body.credential_id);
    const owner = scope.owner(kind);
    const root = await owner.root();
    if (await owner.taken(body.name)) throw new ConflictError(`A ${kind} named ${body.name} already exists.`);
    const lock = owner.lock(body.name, 'git clone');
    const staging = path.join(root, `.berth-git-${randomBytes(6).toString('hex')}`);
    const folder = path.join(root, body.name);
    const now = new Date().toISOString();
    const row: GitSourceRow = {
      environment: scope.id,
      kind,
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
      last_fetch_at: now,
      last_error: null,
      created_at: now,
    };
    let moved = false;
    try {
      const co = this.checkout(staging);
      // The default file is looked for once the ref is there; the marker names it.
      const { knownHosts } = await co.clone(this.source(row), COMPOSE_FILE_NAMES[0], owner.excludes);
      this.credentials.keepKnownHosts(row.credential_id, knownHosts);
      row.path = body.path ?? (await defaultComposePath(staging));
      await fs.writeFile(path.join(staging, GIT_COMPOSE_MARKER), `${row.path}\n`);
      row.latest_commit = await co.head();
      await fs.rename(staging, folder);
      moved = true;
      await owner.prepare(row, actor);
    } catch (err) {
      await fs.rm(moved ? folder : staging, { recursive: true, force: true });
      throw err;
    } finally {
      lock.end(true, null);
    }
    const secret = row.sync_policy === 'webhook' ? this.attachHook(row) : null;
    this.repo.putSource(row);
    return {
      name: row.name,
      git: await this.status(scope, kind, row.name, false),
      webhook_secret: secret,
      warnings: [],
    };
  }

  /** The repository's webhook (one per URL, shared by its projects and stacks): a new one's secret is returned, once. */
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
   * PATCH …/git: another ref, file, env file, credential or sync policy. A new ref or credential
   * is fetched at once, a new file or env file judged like any save; on a failure nothing changes.
   * The checkout moves to a new ref at the next pull or deploy.
   */
  async patch(
    scope: GitScope,
    kind: GitOwnerKind,
    name: string,
    body: GitSourcePatch,
    actor: Actor,
  ): Promise<FromGitResult> {
    const { row: old, co, owner } = await this.find(scope, kind, name);
    if (body.ref !== undefined) checkRef(body.ref);
    if (body.credential_id) this.credentials.exists(body.credential_id);
    const row: GitSourceRow = {
      ...old,
      ref: body.ref ?? old.ref,
      path: body.path ?? old.path,
      env_file: body.env_file === undefined ? old.env_file : body.env_file,
      credential_id: body.credential_id === undefined ? old.credential_id : body.credential_id,
      sync_policy: body.sync?.policy ?? old.sync_policy,
      poll_minutes: body.sync ? (body.sync.policy === 'poll' ? body.sync.interval_minutes : null) : old.poll_minutes,
      hook_id: body.sync && body.sync.policy !== 'webhook' ? null : old.hook_id,
    };
    const marker = path.join(co.folder, GIT_COMPOSE_MARKER);
    const lock = owner.lock(name, 'git settings');
    try {
      if (row.ref !== old.ref || row.credential_id !== old.credential_id) {
        const { latest, knownHosts } = await co.fetch(this.source(row));
        this.credentials.keepKnownHosts(row.credential_id, knownHosts);
        row.latest_commit = latest;
        row.last_fetch_at = new Date().toISOString();
        row.last_error = null;
      }
      if (row.path !== old.path || row.env_file !== old.env_file) {
        await fs.writeFile(marker, `${row.path}\n`);
        try {
          await owner.prepare(row, actor);
        } catch (err) {
          await fs.writeFile(marker, `${old.path}\n`);
          throw err;
        }
      }
    } finally {
      lock.end(true, null);
    }
    const secret = row.sync_policy === 'webhook' && !row.hook_id ? this.attachHook(row) : null;
    const { environment: _e, kind: _k, name: _n, url: _u, created_at: _c, ...changed } = row;
    this.repo.patchSource(scope.id, kind, name, changed);
    return { name, git: await this.status(scope, kind, name, false), webhook_secret: secret, warnings: [] };
  }

  /** Forgets the source of a project or stack that was deleted (and its webhook, once no source uses it). */
  forget(environment: string, kind: GitOwnerKind, name: string): void {
    this.repo.deleteSource(environment, kind, name);
  }

  /** GET …/git: null for a project (or stack) not from git; 404 for none at all. */
  async gitState(scope: GitScope, kind: GitOwnerKind, name: string): Promise<GitStatus | null> {
    checkProjectName(name);
    if (this.repo.source(scope.id, kind, name)) return this.status(scope, kind, name);
    if (!(await scope.owner(kind).taken(name))) throw new NotFoundError(kind, name);
    return null;
  }

  /** A git-backed project's (or stack's) state: fetches (unless `fetch` is false) and compares. */
  async status(scope: GitScope, kind: GitOwnerKind, name: string, fetch = true): Promise<GitStatus> {
    const found = await this.find(scope, kind, name);
    const co = found.co;
    let row = found.row;
    if (fetch) row = await this.fetch(scope, row, co).catch(() => this.repo.source(scope.id, kind, name)!);
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
      this.repo.patchSource(scope.id, row.kind, row.name, {
        latest_commit: latest,
        last_fetch_at: at,
        last_error: null,
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.repo.patchSource(scope.id, row.kind, row.name, { last_fetch_at: at, last_error: message });
      throw err;
    }
    return this.repo.source(scope.id, row.kind, row.name)!;
  }

  /**
   * Fetches and checks the newest commit out (refused over local edits: Berth never pushes them
   * back, and a checkout would lose them); a commit whose files fail the checks is not kept.
   */
  private async update(scope: GitScope, kind: GitOwnerKind, name: string, actor: Actor): Promise<void> {
    const { row: old, co, owner } = await this.find(scope, kind, name);
    const lock = owner.lock(name, 'git pull');
    try {
      const row = await this.fetch(scope, old, co);
      const edited = await co.edited();
      if (edited.length)
        throw new ConflictError(
          `The ${kind} ${name} has local edits (${edited.slice(0, 5).join(', ')}); discard them first. Berth does not push edits back to the repository.`,
        );
      const before = await co.head();
      if (!row.latest_commit || row.latest_commit === before) return;
      await co.checkout(row.latest_commit);
      try {
        await owner.prepare(row, actor);
      } catch (err) {
        if (before) await co.checkout(before);
        await owner.prepare(row, actor).catch(() => undefined);
        throw err;
      }
    } finally {
      lock.end(true, null);
    }
  }

  /** POST …/git/pull: fetch, check out, plan (nothing starts). */
  async pull(scope: GitScope, kind: GitOwnerKind, name: string, actor: Actor): Promise<GitPullResult> {
    await this.update(scope, kind, name, actor);
    return { git: await this.status(scope, kind, name, false), plan: await scope.owner(kind).plan(name) };
  }

  /** POST …/git/deploy: fetch, check out, plan, up; the commit that went up is the deployed one. */
  async deploy(scope: GitScope, kind: GitOwnerKind, name: string, actor: Actor): Promise<GitDeployResult> {
    await this.update(scope, kind, name, actor);
    const { co, owner } = await this.find(scope, kind, name);
    const plan = await owner.plan(name);
    const commit = await co.head();
    const up = await owner.up(name, actor, commit);
    if (commit) this.repo.patchSource(scope.id, kind, name, { deployed_commit: commit });
    const result =
      'action' in up ? up : { name, action: 'stack deploy', service: null, output: up.output, projects: [] };
    return { git: await this.status(scope, kind, name, false), plan, result };
  }

  /** POST …/git/discard: the editor's edits undone (back to the checked-out commit). */
  async discard(scope: GitScope, kind: GitOwnerKind, name: string, actor: Actor): Promise<GitStatus> {
    const { row, co, owner } = await this.find(scope, kind, name);
    const lock = owner.lock(name, 'git discard');
    try {
      await co.discard();
      await owner.prepare(row, actor);
    } finally {
      lock.end(true, null);
    }
    return this.status(scope, kind, name, false);
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
