import fs from 'node:fs/promises';
import path from 'node:path';
import type { ProjectRevision, ProjectRevisionDetail, ProjectRevisionDiff, RevisionImage } from '@berth/contract';
import type { Uses } from '../../context';
import { parseDotenv } from '../../compose/interpolate';
import { PROJECT_LABEL, SERVICE_LABEL } from '../../docker/names';
import { NotFoundError } from '../../errors';
import { maskEnv } from '../projects/project-env';
import { maskFileEnv } from '../auth/env-visibility';
import type { ExistingProject, ProjectsService } from '../projects/projects';
import { pinnedDigest } from '../images/images-update';
import { projectRevisionOf, type RevisionMeta, type RevisionStore } from './store';

/** A project's files as they were handed to the CLI: read under its lock, before the up. */
export interface ProjectSnapshot {
  name: string;
  composeFile: string;
  content: string;
  env: string | null;
}

/** What a caller may read of a revision's values: admins everything, others .env keys without values. */
export interface RevisionReader {
  /** Whether the .env values are shown. */
  envValues: boolean;
  /** Whether the compose file's `environment:` values are shown (else masked, as in the project's own detail). */
  fileValues: boolean;
}
const ALL: RevisionReader = { envValues: true, fileValues: true };

/**
 * Every deploy of a compose project, recorded (issue 34): the compose file and `.env` (sealed)
 * as the CLI read them, each service's image digest after the up, the commit of a git deploy,
 * who, when and how it went. The newest REVISIONS_KEPT per project are kept.
 */
export class ProjectRevisions {
  constructor(
    private readonly ctx: Uses<'docker' | 'log'>,
    private readonly environment: string,
    private readonly store: RevisionStore,
    private readonly projects: ProjectsService,
  ) {}

  /** The project's files now (call under the project's lock, right before the CLI reads them). */
  async snapshot(p: ExistingProject): Promise<ProjectSnapshot> {
    const { content } = await this.projects.parseExisting(p).catch(async () => ({
      content: await fs.readFile(p.file, 'utf8'),
    }));
    const env = await fs.readFile(path.join(p.dir, '.env'), 'utf8').catch(() => null);
    return { name: p.name, composeFile: path.basename(p.file), content, env };
  }

  /** Records a deploy of `snap`, with the image digests its containers run now. Never throws: a failure is logged. */
  async record(snap: ProjectSnapshot, meta: RevisionMeta): Promise<ProjectRevision | null> {
    try {
      const row = this.store.repo.projects.add(
        {
          environment: this.environment,
          project: snap.name,
          created_at: new Date().toISOString(),
          created_by: meta.by,
          source: meta.source,
          outcome: meta.outcome,
          detail: meta.detail ?? null,
          compose_file: snap.composeFile,
          compose: snap.content,
          env_sealed: snap.env === null ? null : this.store.seal(snap.env),
          digests: JSON.stringify(await this.images(snap.name)),
          commit_sha: meta.commit ?? null,
          rollback_of: meta.rollbackOf ?? null,
        },
        this.store.keep,
      );
      return projectRevisionOf(row);
    } catch (err) {
      this.ctx.log.error({ project: snap.name, err: (err as Error).message }, 'recording a project revision failed');
      return null;
    }
  }

  /**
   * For a deploy made outside ProjectActionsService.run (a git deploy): snapshots the project's
   * files as they are now and records them with `meta`.
   */
  async recordNow(name: string, meta: RevisionMeta): Promise<ProjectRevision | null> {
    const p = await this.projects.resolveExisting(name);
    return this.record(await this.snapshot(p), meta);
  }

  /** Each service's image reference and the digest its (first) container runs. */
  async images(project: string): Promise<RevisionImage[]> {
    const seen = new Map<string, RevisionImage>();
    for (const c of (await this.containers(project)).sort((a, b) => a.Created - b.Created)) {
      const service = c.Labels[SERVICE_LABEL];
      if (!service || seen.has(service)) continue;
      const image = (await this.ctx.docker.inspectContainer(c.Id)).Config.Image ?? c.Image;
      seen.set(service, { service, image, digest: await pinnedDigest(this.ctx.docker, image, c.ImageID) });
    }
    return [...seen.values()].sort((a, b) => a.service.localeCompare(b.service));
  }

  /** The project's containers (any state). */
  containers(project: string) {
    return this.ctx.docker.listContainers({ all: true, filters: { label: [`${PROJECT_LABEL}=${project}`] } });
  }

  list(name: string): ProjectRevision[] {
    return this.store.repo.projects.list(this.environment, name).map(projectRevisionOf);
  }

  /** One revision with its files; the .env sealed inside stays sealed to a reader without values. */
  get(name: string, rev: number, reader: RevisionReader): ProjectRevisionDetail {
    const row = this.store.repo.projects.get(this.environment, name, rev);
    if (!row) throw new NotFoundError('revision', `${rev} of project ${name}`);
    const env = row.env_sealed === null ? null : (this.store.open(row.env_sealed) ?? '');
    return {
      ...projectRevisionOf(row),
      compose_file: row.compose_file,
      content: reader.fileValues ? row.compose : maskFileEnv(row.compose),
      env: env === null || reader.envValues ? env : maskEnv(env),
      env_values: reader.envValues,
    };
  }

  /** The .env text as recorded (for a rollback): values included. */
  envOf(name: string, rev: number): string | null {
    return this.get(name, rev, ALL).env;
  }

  /** The patch is made by `diff`, loaded on first use. */
  async diff(name: string, a: number, b: number, reader: RevisionReader): Promise<ProjectRevisionDiff> {
    const { createTwoFilesPatch } = await import('diff');
    const [from, to] = [this.get(name, a, ALL), this.get(name, b, ALL)];
    const [ea, eb] = [parseDotenv(from.env ?? ''), parseDotenv(to.env ?? '')];
    const keys = [...new Set([...Object.keys(ea), ...Object.keys(eb)])].sort();
    const images = [...new Set([...from.images, ...to.images].map((i) => i.service))].sort().flatMap((service) => {
      const [x, y] = [from.images.find((i) => i.service === service), to.images.find((i) => i.service === service)];
      return x?.image === y?.image && x?.digest === y?.digest ? [] : [{ service, from: x ?? null, to: y ?? null }];
    });
    const [shownFrom, shownTo] = [this.get(name, a, reader), this.get(name, b, reader)];
    return {
      from: shownFrom,
      to: shownTo,
      patch: createTwoFilesPatch(
        `${from.compose_file} (revision ${a})`,
        `${to.compose_file} (revision ${b})`,
        shownFrom.content,
        shownTo.content,
      ),
      env: {
        added: keys.filter((k) => !(k in ea)),
        removed: keys.filter((k) => !(k in eb)),
        changed: keys.filter((k) => k in ea && k in eb && ea[k] !== eb[k]),
      },
      images,
    };
  }
}
