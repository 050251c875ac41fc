import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ProjectRevisionDetail, ProjectRollbackResult } from '@berth/contract';
import type { Uses } from '../../context';
import { parseCompose } from '../../compose/document';
import { runCompose } from '../../compose/project-cli';
import { withPinFile } from '../../compose/service-update';
import { ConflictError } from '../../errors';
import { healthGate } from '../apps/health-gate';
import { restoreTag } from '../images/engine-images';
import type { Actor } from '../policy';
import type { ProjectEnvService } from '../projects/project-env';
import type { ProjectPlanService } from '../projects/project-plan';
import type { ExistingProject, ProjectsService } from '../projects/projects';
import type { ProjectRevisions } from './project-revisions';

/** How long each container must keep running (or report healthy) after a rollback's up. */
const SETTLE_MS = 3_000;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Returns a project to a recorded revision: its compose file and `.env` written back (through the
 * same checks as a save), each service pinned to the digest it ran (an override file, as
 * auto-update's rollback does; the file stays as written), planned, up (the operator policy and
 * file-reference check first, as any up), the health gate on every container, and the result
 * recorded as a new revision.
 */
export class ProjectRollback {
  constructor(
    private readonly ctx: Uses<'docker', 'dataDir'>,
    private readonly projects: ProjectsService,
    private readonly env: ProjectEnvService,
    private readonly planner: ProjectPlanService,
    private readonly revisions: ProjectRevisions,
  ) {}

  async rollback(name: string, rev: number, actor: Actor, dryRun: boolean): Promise<ProjectRollbackResult> {
    const p = await this.projects.resolveExisting(name);
    if (p.external) throw new ConflictError(`Project ${name} was started outside Berth; adopt it before rolling back.`);
    const target = this.revisions.get(name, rev, { envValues: true, fileValues: true });
    const pins = Object.fromEntries(target.images.flatMap((i) => (i.digest ? [[i.service, i.digest]] : [])));
    const version = versionOf(target.content);
    if (dryRun) return { plan: await this.dryPlan(p, target, pins, version), revision: null, output: '' };

    // Written back through the checks of a save (policy, the CLI's own check), before the project's lock is taken.
    if (target.env !== null) await this.env.write(name, target.env, actor);
    await this.projects.write(name, target.content, 'edit', actor);
    const now = await this.projects.resolveExisting(name);
    const lock = this.projects.activity.begin(name, 'rollback');
    const meta = { by: actor.username, source: 'rollback', rollbackOf: rev } as const;
    try {
      const snap = await this.revisions.snapshot(now);
      await this.projects.judge(now, actor);
      const runner = this.projects.runner();
      const plan = await withPinFile(this.pinRoot, pins, version, async (file) => {
        const planned = await this.planner.plan(name, { overrides: [file] });
        lock.append(`Rolling back to revision ${rev}; pinned: ${JSON.stringify(pins)}\n`);
        await runCompose(runner, { ...now, overrides: [file] }, ['up', '-d', '--remove-orphans'], lock.append);
        return planned;
      }).catch(async (err: unknown) => {
        await this.revisions.record(snap, { ...meta, outcome: 'failed', detail: 'The compose up failed.' });
        throw err;
      });
      const trouble = await this.gate(name);
      await this.restoreTags(target);
      const revision = await this.revisions.record(snap, {
        ...meta,
        outcome: trouble ? 'failed' : 'success',
        detail: trouble ?? `Rolled back to revision ${rev}.`,
      });
      lock.end(!trouble, trouble);
      return { plan, revision, output: lock.output() };
    } catch (err) {
      lock.end(false, message(err));
      throw err;
    }
  }

  /**
   * What the rollback's up would do, nothing changed: the revision's file (a hidden copy beside the
   * project's, so relative paths mean the same) with the pins. The CLI reads the project's current .env.
   */
  private async dryPlan(
    p: ExistingProject,
    target: ProjectRevisionDetail,
    pins: Record<string, string>,
    version: string | null,
  ) {
    const copy = path.join(p.dir, `.berth-rollback-${randomBytes(4).toString('hex')}.yml`);
    await fs.writeFile(copy, target.content, { mode: 0o600 });
    try {
      return await withPinFile(this.pinRoot, pins, version, (file) =>
        this.planner.plan(p.name, { file: copy, overrides: [file] }),
      );
    } finally {
      await fs.rm(copy, { force: true });
    }
  }

  /** Null when every container of the project passes the health gate, else why not. */
  private async gate(name: string): Promise<string | null> {
    const ids = (await this.revisions.containers(name)).map((c) => c.Id);
    if (ids.length === 0) return 'No container of the project exists after the rollback.';
    const verdicts = await Promise.all(ids.map((id) => healthGate(this.ctx.docker, id, SETTLE_MS)));
    const failed = verdicts.find((v) => !v.ok);
    return failed && !failed.ok ? failed.reason : null;
  }

  /** Each service's tag points at the image its pinned container runs, so a later up by tag keeps it. */
  private async restoreTags(target: ProjectRevisionDetail): Promise<void> {
    for (const image of target.images) {
      if (!image.image || !image.digest) continue;
      const id = await this.ctx.docker.inspectImage(image.digest).then(
        (i) => i.Id,
        () => null,
      );
      if (id) await restoreTag(this.ctx.docker, image.image, id);
    }
  }

  private get pinRoot(): string {
    return path.join(this.ctx.config.dataDir, '.tmp', 'rollback-pins');
  }
}

/** The file's `version`, which the pin override must repeat. */
function versionOf(content: string): string | null {
  try {
    const v = parseCompose(content).data.version;
    return typeof v === 'string' || typeof v === 'number' ? String(v) : null;
  } catch {
    return null;
  }
}
