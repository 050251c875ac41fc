import fs from 'node:fs/promises';
import path from 'node:path';
import type { ActionResult, ProjectAction, RevisionSource, ServiceAction } from '@berth/contract';
import type { Uses } from '../../context';
import { AppError, ComposeFailedError, NotFoundError, ValidationError } from '../../errors';
import { redactEnvironment } from '../../compose/document';
import { resolveProject } from '../../compose/paths';
import { actionArgs, runCompose } from '../../compose/project-cli';
import { containerLogTail, listComposeContainers } from './compose-containers';
import { attachmentName, buildZip, type ZipEntry } from '../../lib/zip';
import type { ExistingProject, ProjectsService } from './projects';
import type { Actor } from '../policy';
import type { ProjectRevisions } from '../revisions/project-revisions';

/** A service name may never read as a CLI option (compose itself would accept `-h`). */
export const SERVICE_NAME = /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/;
/** Actions that may create containers (or fetch what they run): the compose-document policy is asked first. */
const CREATES = new Set<string>(['up', 'create', 'pull']);
/** Actions after which the CLI has removed containers: their last lines are kept first (services/log-archive). */
const REMOVES = new Set<string>(['down', 'rm', 'delete']);
/** Per service log in a support bundle. */
const BUNDLE_LOG_LINES = 5000;
const BUNDLE_LOG_BYTES = 1024 * 1024;

/** A compose action that failed, for notifications (no CLI output: it may quote the project's values). */
export interface ComposeFailure {
  project: string;
  action: string;
  service: string | null;
}

/** How an up is recorded as a revision: what made it (an up through Berth by default) and the git commit it deploys. */
export interface DeployOptions {
  source?: RevisionSource;
  commit?: string | null;
}

/** Compose actions (one per project at a time, live output) and support bundles. */
export class ProjectActionsService {
  constructor(
    private readonly ctx: Uses<'docker' | 'log', 'composeDir'>,
    private readonly projects: ProjectsService,
    private readonly onFailed: (f: ComposeFailure) => void = () => {},
    private readonly revisions: ProjectRevisions | null = null,
    private readonly keepLogs: (project: string, service: string | null) => Promise<void> = async () => {},
    private readonly onDeleted: (name: string) => void = () => {},
  ) {}

  async run(
    name: string,
    action: ProjectAction | ServiceAction,
    service: string | null,
    actor: Actor,
    deploy: DeployOptions = {},
  ): Promise<ActionResult> {
    const p = await this.projects.resolveExisting(name);
    if (service !== null) await this.checkService(p, service);
    // What may make containers is judged on the file as it is now (a container could have rewritten a bound file).
    if (CREATES.has(action)) await this.projects.judge(p, actor);
    const runner = await this.projects.runnerFor(p);
    const handle = this.projects.activity.begin(name, action, service);
    // Every up of a project in Berth's folder is a revision: its files as the CLI reads them, then the digests it ran.
    const snap = action === 'up' && !p.external && this.revisions ? await this.revisions.snapshot(p) : null;
    const meta = { by: actor.username, source: deploy.source ?? 'up', commit: deploy.commit ?? null } as const;
    try {
      if (REMOVES.has(action)) await this.keepLogs(p.name, service);
      if (action === 'delete') await this.delete(p, handle.append);
      else await runCompose(runner, p, actionArgs(action, service), handle.append);
      if (snap) await this.revisions!.record(snap, { ...meta, outcome: 'success' });
      handle.end(true, null);
    } catch (err) {
      if (snap)
        await this.revisions!.record(snap, {
          ...meta,
          outcome: 'failed',
          detail: 'The compose up failed (see the activity output).',
        });
      handle.end(false, err instanceof Error ? err.message : String(err));
      if (err instanceof ComposeFailedError) {
        this.ctx.log.info({ project: name, action, service }, 'compose action failed');
        this.onFailed({ project: name, action, service });
      }
      throw err;
    }
    if (action === 'delete') {
      this.projects.activity.forget(name);
      this.onDeleted(name);
    }
    return { name, action, service, output: handle.output(), projects: await this.projects.list() };
  }

  private async checkService(p: ExistingProject, service: string): Promise<void> {
    if (!SERVICE_NAME.test(service))
      throw new ValidationError(
        `Invalid service name ${JSON.stringify(service.slice(0, 70))}: letters, digits, . _ - starting with a letter or digit.`,
      );
    const { parsed } = await this.projects.parseExisting(p);
    const services = parsed.data.services;
    if (!services || typeof services !== 'object' || !Object.hasOwn(services, service))
      throw new NotFoundError('service', `${service} in project ${p.name}`);
  }

  /**
   * `down` (containers and the default network go, volumes stay), then the folder. A project
   * whose file the CLI cannot read but which has no containers left is removed anyway, so a
   * broken project can always be deleted.
   */
  private async delete(p: ExistingProject, onOutput: (chunk: string) => void): Promise<void> {
    try {
      await runCompose(this.projects.runner(), p, ['down'], onOutput);
    } catch (err) {
      if (!(err instanceof ComposeFailedError) || err.statusCode === 504) throw err;
      const left = await listComposeContainers(this.ctx.docker, p.name);
      if (left.length > 0) throw err;
      onOutput(`\n${err.message}\nNo containers of ${p.name} exist, so its folder is removed anyway.\n`);
    }
    // Resolve again right before removing: the folder must still be a real folder inside COMPOSE_DIR.
    const again = await resolveProject(this.ctx.config.composeDir, p.name);
    if (!again.exists) return;
    await fs.rm(again.folder, { recursive: true });
    onOutput(`Removed ${again.folder}\n`);
  }

  /** The compose file (environment values redacted) and each service's log tail, as a zip. */
  async support(name: string): Promise<{ filename: string; zip: Buffer }> {
    const p = await this.projects.resolveExisting(name);
    const fileName = path.basename(p.file);
    const entries: ZipEntry[] = [];
    let services: string[] = [];
    try {
      const { parsed } = await this.projects.parseExisting(p);
      entries.push({ name: fileName, content: redactEnvironment(parsed) });
      services = Object.keys((parsed.data.services as Record<string, unknown> | undefined) ?? {});
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Unreadable as YAML, so nothing can be redacted: say why instead of shipping the raw file.
      entries.push({ name: `${fileName}.error.txt`, content: `${err.message}\n` });
    }
    const containers = await listComposeContainers(this.ctx.docker, name);
    for (const service of new Set([...services, ...containers.map((c) => c.service)])) {
      const own = containers.filter((c) => c.service === service);
      if (own.length === 0)
        entries.push({ name: `${attachmentName(service, 'log')}`, content: 'No container exists for this service.\n' });
      for (const c of own) {
        const log = await containerLogTail(this.ctx.docker, c.id, BUNDLE_LOG_LINES, BUNDLE_LOG_BYTES);
        entries.push({ name: attachmentName(own.length > 1 ? c.name : service, 'log'), content: log });
      }
    }
    return { filename: attachmentName(`${name}_bundle`, 'zip'), zip: await buildZip(entries) };
  }
}
