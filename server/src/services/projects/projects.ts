import fs from 'node:fs/promises';
import path from 'node:path';
import {
  MAX_COMPOSE_BYTES,
  PROJECT_NAME_PATTERN,
  PROJECT_NAME_RULE,
  type Project,
  type ProjectDetail,
  type WrittenProject,
} from '@berth/contract';
import type { Uses } from '../../context';
import {
  AppError,
  ComposeFailedError,
  ComposeUnknownError,
  ConflictError,
  DockerUnavailableError,
  NotFoundError,
  ValidationError,
} from '../../errors';
import { ProjectActivity } from '../../compose/activity';
import { checkComposeSchema, parseCompose, summarise, type ParsedCompose } from '../../compose/document';
import { interpolationEnv, parseDotenv } from '../../compose/interpolate';
import {
  composeRoot,
  projectComposeFile,
  NEW_COMPOSE_FILE,
  resolveProject,
  checkProjectName,
  type ProjectPaths,
} from '../../compose/paths';
import { checkWithCli, sweepCheckFiles, type ComposeRunner } from '../../compose/project-cli';
import { composeImages } from '../../compose/docker-config';
import { dockerConfigFor } from '../registries/credentials';
import { listComposeContainers, type LabelledContainer } from './compose-containers';
import { findExternalProjects, type ExternalProject } from './projects-external';
import { checkEnvText } from './project-env';
import { projectStatus } from './status';
import { writeFileAtomic } from '../../lib/atomic-write';
import { checkComposePolicy } from '../policy/compose-policy';
import type { Actor, PolicyGate } from '../policy';

export interface ExistingProject extends ProjectPaths {
  file: string;
  /** Started outside Berth (its folder is not under COMPOSE_DIR): actions and logs work, edits need an adopt first. */
  external?: boolean;
}

/** On shutdown, how long compose gets after SIGTERM before its process group is killed. */
const SHUTDOWN_GRACE_MS = 10_000;

const EMPTY = { version: null, services: {}, networks: [], volumes: [] };

type ListedProject = Omit<Project, 'status'>;

function errorEntry(name: string, where: string, error: string): ListedProject {
  return { name, path: where, ...EMPTY, inUse: false, error, external: false };
}

/** Reads a compose file, refusing one too large to be a compose file before reading it all. */
async function readComposeFile(file: string): Promise<string> {
  const st = await fs.stat(file);
  if (st.size > MAX_COMPOSE_BYTES)
    throw new ValidationError(
      `${path.basename(file)} is ${Math.ceil(st.size / 1024)} KiB; a compose file may be at most ${MAX_COMPOSE_BYTES / 1024} KiB.`,
    );
  return fs.readFile(file, 'utf8');
}

/** Compose projects on disk: discovery, reading, validated atomic saves. */
export class ProjectsService {
  private readonly closing = new AbortController();

  constructor(
    private readonly ctx: Uses<
      'compose' | 'composeUnknown' | 'docker' | 'log' | 'onClose' | 'registryAuth' | 'remoteEngine',
      'cliEnv' | 'composeDir' | 'composeTimeoutMs' | 'dataDir'
    >,
    readonly policy: PolicyGate,
    readonly activity = new ProjectActivity(),
  ) {
    ctx.onClose(() => this.closing.abort());
  }

  /** The compose CLI with our environment and timeout; 503 when none was found at start. */
  runner(): ComposeRunner {
    const cli = this.ctx.compose;
    if (!cli && this.ctx.composeUnknown) throw new ComposeUnknownError();
    if (!cli)
      throw new ComposeFailedError(
        'No compose CLI was found (neither `docker compose` nor `docker-compose`); install one and restart Berth.',
        503,
      );
    return {
      cli,
      env: this.ctx.config.cliEnv,
      timeoutMs: this.ctx.config.composeTimeoutMs,
      signal: this.closing.signal,
      graceMs: SHUTDOWN_GRACE_MS,
    };
  }

  /**
   * The runner for an action on `p`: with the stored registry credentials its images need (chosen
   * by host, this environment's only), handed to the CLI in a private DOCKER_CONFIG for the run.
   */
  async runnerFor(p: ExistingProject): Promise<ComposeRunner> {
    const runner = this.runner();
    const lookup = this.ctx.registryAuth;
    if (!lookup) return runner;
    let images: string[];
    try {
      const { parsed } = await this.parseExisting(p);
      images = composeImages(parsed.data, await interpolationEnv(p.dir, this.ctx.config.cliEnv));
    } catch (err) {
      // A file that does not parse names no image to log in for; the CLI says what is wrong with it,
      // and `down` (a broken project's delete) needs no credential.
      if (err instanceof ValidationError) return runner;
      throw err;
    }
    return { ...runner, registry: { auths: dockerConfigFor(images, lookup).auths, root: this.dockerConfigRoot } };
  }

  /** Where the private docker configs of compose runs are made: private, never among the project folders. */
  private get dockerConfigRoot(): string {
    return path.join(this.ctx.config.dataDir, '.tmp', 'docker-config');
  }

  /**
   * On shutdown, before in-flight requests are waited for: running compose commands get SIGTERM
   * (SIGKILL after the grace), and we wait until every project's lock is released, so each
   * action answers and its viewers see its `end`.
   */
  async shutdown(): Promise<void> {
    this.closing.abort();
    if (!(await this.activity.idle(SHUTDOWN_GRACE_MS + 5_000)))
      this.ctx.log.warn('compose actions still running at shutdown');
  }

  /** Where save checks put their copy of the content: private, never among the project folders. */
  private get checkRoot(): string {
    return path.join(this.ctx.config.dataDir, '.tmp', 'compose-check');
  }

  /** At start: removes the check copies that a crash during a save left behind. */
  async sweepCheckFiles(): Promise<void> {
    const swept = await sweepCheckFiles(this.checkRoot, await composeRoot(this.ctx.config.composeDir));
    if (swept) this.ctx.log.info({ swept }, 'removed compose check copies left by an interrupted save');
  }

  /** A project that exists and has a compose file (Berth's own, else one started outside Berth), or a 404. */
  async resolveExisting(name: string): Promise<ExistingProject> {
    const p = await resolveProject(this.ctx.config.composeDir, name);
    if (p.exists && p.file) return p as ExistingProject;
    const ext = p.exists ? undefined : (await this.external(await this.containers(name), new Set())).get(name);
    if (!ext?.file) throw new NotFoundError('project', name);
    return { name, root: ext.dir, dir: ext.dir, folder: ext.dir, exists: true, file: ext.file, external: true };
  }

  /** Projects started outside Berth, found from their containers' labels (the list this call already read). */
  private async external(
    containers: readonly LabelledContainer[],
    own: ReadonlySet<string>,
  ): Promise<Map<string, ExternalProject>> {
    // A remote engine's labels name files on its own machine, never on this one.
    if (this.ctx.remoteEngine) return new Map();
    return findExternalProjects(containers, own);
  }

  async parseExisting(p: ExistingProject): Promise<{ content: string; parsed: ParsedCompose }> {
    const content = await readComposeFile(p.file);
    return { content, parsed: parseCompose(content) };
  }

  /**
   * Judges a project's file as the CLI will read it now (its .env, or `dotenv` about to replace
   * it), for `actor`: the one compose-document policy, asked again before every up, create and pull.
   */
  async judge(p: ExistingProject, actor: Actor, dotenv?: Record<string, string>): Promise<void> {
    const { parsed } = await this.parseExisting(p);
    const env = dotenv
      ? { ...dotenv, ...this.ctx.config.cliEnv }
      : await interpolationEnv(p.dir, this.ctx.config.cliEnv);
    await checkComposePolicy(this.policy, actor, parsed, env, p.dir, p.name);
  }

  /** A document not yet in a folder (a converted `docker run`): judged as if it were a new project's. */
  judgeText(content: string, actor: Actor, project = 'new-project'): Promise<void> {
    const dir = path.join(this.ctx.config.composeDir, project);
    return checkComposePolicy(this.policy, actor, parseCompose(content), this.ctx.config.cliEnv, dir, project);
  }

  /** Containers by project; an unreachable engine leaves every project "not in use" rather than failing the list. */
  private async containers(project?: string): Promise<LabelledContainer[]> {
    try {
      return await listComposeContainers(this.ctx.docker, project);
    } catch (err) {
      if (!(err instanceof DockerUnavailableError)) throw err;
      this.ctx.log.warn('engine unreachable: project containers unknown');
      return [];
    }
  }

  /** Every project folder under COMPOSE_DIR; a broken one carries its error and never breaks the list. */
  async list(): Promise<Project[]> {
    const root = await composeRoot(this.ctx.config.composeDir);
    const [entries, containers] = await Promise.all([
      root ? fs.readdir(root, { withFileTypes: true }) : [],
      this.containers(),
    ]);
    const used = new Set(containers.map((c) => c.project));
    const out: ListedProject[] = [];
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      // Dot folders are hidden on purpose (older versions also kept save checks there).
      if (entry.name.startsWith('.')) continue;
      const dir = path.join(root!, entry.name);
      if (entry.isSymbolicLink())
        out.push(
          errorEntry(entry.name, dir, 'The folder is a symbolic link; Berth does not follow links out of COMPOSE_DIR.'),
        );
      else if (!entry.isDirectory()) continue;
      else if (!PROJECT_NAME_PATTERN.test(entry.name))
        out.push(errorEntry(entry.name, dir, `The folder name is not a valid project name. ${PROJECT_NAME_RULE}`));
      else {
        const project = await this.readForList(entry.name, dir, used.has(entry.name));
        if (project) out.push(project);
      }
    }
    for (const ext of (await this.external(containers, new Set(out.map((p) => p.name)))).values()) {
      const project = ext.file
        ? await this.readForList(ext.name, path.dirname(ext.file), true, ext.file)
        : errorEntry(ext.name, ext.dir, 'Started outside Berth; its compose file is not readable here.');
      if (project) out.push({ ...project, inUse: true, external: true });
    }
    return out.map((p) => ({
      ...p,
      status: projectStatus(
        Object.keys(p.services),
        containers.filter((c) => c.project === p.name),
      ),
    }));
  }

  private async readForList(name: string, dir: string, inUse: boolean, known?: string): Promise<ListedProject | null> {
    let file: string | null = null;
    try {
      file = known ?? (await projectComposeFile(dir));
      if (!file) return null;
      const { data } = parseCompose(await readComposeFile(file));
      return { name, path: file, ...summarise(data), inUse, error: null, external: false };
    } catch (err) {
      const error =
        err instanceof AppError
          ? err.message
          : `The compose file cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
      return { ...errorEntry(name, file ?? dir, error), inUse };
    }
  }

  /** One project with its content; a broken file still comes back (with its error) so it can be fixed. */
  async get(name: string): Promise<ProjectDetail> {
    const p = await this.resolveExisting(name);
    const content = await readComposeFile(p.file);
    const containers = (await this.containers(name)).map(
      ({ project: _, workingDir: _dir, configFiles: _files, ...c }) => c,
    );
    const inUse = containers.length > 0;
    try {
      const { data } = parseCompose(content);
      const summary = summarise(data);
      return {
        name,
        path: p.file,
        ...summary,
        inUse,
        error: null,
        external: p.external ?? false,
        status: projectStatus(Object.keys(summary.services), containers),
        content,
        containers,
      };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return {
        name,
        path: p.file,
        ...EMPTY,
        inUse,
        error: err.message,
        external: p.external ?? false,
        status: projectStatus([], containers),
        content,
        containers,
      };
    }
  }

  /**
   * Makes a project started outside Berth one of Berth's: its compose file (and .env) are copied
   * into COMPOSE_DIR/<name> through the same checks as a save. The containers keep running.
   */
  async adopt(name: string, actor: Actor): Promise<WrittenProject> {
    const p = await this.resolveExisting(name);
    if (!p.external) throw new ConflictError(`Project ${name} is already in Berth's folder.`);
    const written = await this.write(name, await readComposeFile(p.file), 'create', actor);
    const dotenv = await fs.readFile(path.join(p.dir, '.env')).catch(() => null);
    if (dotenv) await writeFileAtomic(path.join(path.dirname(written.path), '.env'), dotenv, { mode: 0o600 });
    const relative = /(^|[\s"'=:-])\.\.?\//m.test(written.content)
      ? [
          `Relative paths in the file now start from ${path.dirname(written.path)}, not ${p.dir}; copy what they point at or make them absolute.`,
        ]
      : [];
    return { ...written, warnings: [...written.warnings, ...relative] };
  }

  /** POST /api/compose/{name}/edit: the body's name must be the path's (no renames); creates the project if missing. */
  edit(pathName: string, body: { name: string; content: string }, actor: Actor) {
    checkProjectName(pathName);
    checkProjectName(body.name);
    if (body.name !== pathName)
      throw new ValidationError(
        `The body names project ${body.name} but the path names ${pathName}; renaming a project is not supported.`,
      );
    return this.write(body.name, body.content, 'edit', actor);
  }

  /**
   * Validates (YAML limits, the Compose Specification's schema, then the CLI's `config -q`) and
   * only then writes, atomically; a refused save leaves the old file byte-identical and a new
   * project leaves no folder.
   */
  async write(
    name: string,
    content: string,
    mode: 'create' | 'edit',
    actor: Actor,
    dotenv?: string | null,
  ): Promise<WrittenProject> {
    checkProjectName(name);
    // A new project's .env may come with it: files that need a variable before their first check (`${PG_PASS:?}`).
    const env = mode === 'create' && dotenv ? dotenv : undefined;
    if (env !== undefined) checkEnvText(env, 'env');
    const parsed = parseCompose(content);
    checkComposeSchema(parsed);
    const lock = this.activity.begin(name, 'save', null, { quiet: true });
    try {
      const p = await resolveProject(this.ctx.config.composeDir, name, { createRoot: true });
      if (mode === 'create' && p.file) throw new ConflictError(`Project ${name} already exists; edit it instead.`);
      const known = await interpolationEnv(p.exists ? p.dir : null, this.ctx.config.cliEnv);
      await checkComposePolicy(
        this.policy,
        actor,
        parsed,
        env === undefined ? known : { ...parseDotenv(env), ...known },
        p.dir,
        name,
      );
      const file = p.file ?? path.join(p.dir, NEW_COMPOSE_FILE);
      let warnings: string[] = [];
      // The CLI's check is what refuses `${X:?required}` and the like: never save unchecked because it was slow to answer.
      if (this.ctx.composeUnknown) throw new ComposeUnknownError();
      if (this.ctx.compose)
        warnings = await checkWithCli(
          this.runner(),
          this.checkRoot,
          name,
          p.exists ? p.dir : null,
          content,
          path.basename(file),
          env,
        );
      else this.ctx.log.warn({ project: name }, 'no compose CLI: saved after the YAML check only');
      if (!p.exists) await fs.mkdir(p.dir, { mode: 0o755 });
      try {
        if (env !== undefined) await writeFileAtomic(path.join(p.dir, '.env'), env, { mode: 0o600 });
        await writeFileAtomic(file, content);
      } catch (err) {
        if (!p.exists) await fs.rm(p.dir, { recursive: true, force: true });
        throw err;
      }
      return { name, path: file, content, warnings };
    } finally {
      lock.end(true, null);
    }
  }
}
