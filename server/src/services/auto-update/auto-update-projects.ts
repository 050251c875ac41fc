import fs from 'node:fs/promises';
import path from 'node:path';
import { parseImageReference, type AutoUpdateItem, type AutoUpdatePolicy, type VersionPolicy } from '@berth/contract';
import type { Uses } from '../../context';
import type { AutoUpdateRepo } from '../../db/auto-update-repo';
import { parseCompose } from '../../compose/document';
import { setServiceImages } from '../../compose/image-edit';
import { resolvedConfig } from '../../compose/project-cli';
import { pullServices, recreatePinned, recreateServices } from '../../compose/service-update';
import { healthGate } from '../apps/health-gate';
import { checkImageUpdate } from '../images/images-update';
import { restoreTag } from '../images/engine-images';
import { PROJECT_LABEL, SERVICE_LABEL } from '../../docker/names';
import { NotFoundError } from '../../errors';
import type { ExistingProject, ProjectsService } from '../projects/projects';
import { SERVICE_NAME } from '../projects/projects-actions';
import type { ProjectRevisions } from '../revisions/project-revisions';
import { chooseVersionMove, effectivePolicy, imageLabels, ownPolicyLabels, skippedTags } from './auto-update-policy';
import { checkOnly, moveImages, type ItemOf } from './auto-update-project-files';

/** A compose service with a container: its labels (the first container's), the container ids and whether one runs. */
export interface ComposeServiceState {
  name: string;
  labels: Record<string, string>;
  ids: string[];
  /** Whether any of its containers runs. */
  running: boolean;
}

/** One project's run: the services whose policy is enabled (and fits the schedule that fired). */
export interface ProjectTarget {
  project: string;
  services: string[];
  /** Mode and settle time come from the project's override or the global policy (labels set neither). */
  policy: AutoUpdatePolicy;
  /** The services' schedules (a label may give one service its own). */
  schedules: string[];
  /** Each service's version policy (a label may give one service its own). */
  versions: Record<string, VersionPolicy>;
}

/** What one changed service needs: where it updates from and to, and the pin that restores it. */
interface Change {
  service: string;
  from: string | null;
  to: string | null;
  pin: string | null;
  /** The service's image reference and the image its container ran: the tag goes back to it after a rollback. */
  ref: string;
  imageId: string;
  /** An update by version: the newer tag and reference the project file is changed to. */
  move: { tag: string; ref: string } | null;
}
interface Outcome {
  change: Change;
  result: AutoUpdateItem['result'];
  reason: string | null;
}

/** A run result's name for a compose service: `<project>/<service>` (app names never hold a slash). */
export const serviceTarget = (project: string, service: string) => `${project}/${service}`;

/**
 * Auto-update of compose projects, service by service: each service's image is checked against its
 * registry like an app's; changed services are pulled and recreated alone (`up -d --no-deps`)
 * under the project's lock, then pass the health gate or are recreated from their previous image
 * digest, pinned through a temporary override file (the project's file stays as written), their
 * image tag pointed back at the previous image (so a later Up keeps it), and the digest is
 * remembered as bad.
 */
export class ProjectAutoUpdate {
  constructor(
    private readonly ctx: Uses<'composeReady' | 'docker' | 'registryAuth' | 'registryTags', 'dataDir'>,
    private readonly projects: ProjectsService,
    private readonly repo: AutoUpdateRepo,
    private readonly revisions: ProjectRevisions | null = null,
  ) {}

  /** Compose services with containers, by project (one engine call); `skipId` (Berth itself) is left out. */
  async services(skipId: string | null, project?: string): Promise<Map<string, ComposeServiceState[]>> {
    const [list, images] = await Promise.all([
      this.ctx.docker.listContainers({
        all: true,
        filters: { label: [project ? `${PROJECT_LABEL}=${project}` : PROJECT_LABEL] },
      }),
      imageLabels(this.ctx.docker),
    ]);
    const out = new Map<string, ComposeServiceState[]>();
    for (const c of list) {
      const [name, service] = [c.Labels[PROJECT_LABEL] ?? '', c.Labels[SERVICE_LABEL] ?? ''];
      if (c.Id === skipId || !name || !SERVICE_NAME.test(service)) continue;
      const states = out.get(name) ?? [];
      out.set(name, states);
      const known = states.find((s) => s.name === service);
      if (known) {
        known.ids.push(c.Id);
        known.running ||= c.State === 'running';
      } else
        states.push({
          name: service,
          labels: ownPolicyLabels(c.Labels, images.get(c.ImageID)),
          ids: [c.Id],
          running: c.State === 'running',
        });
    }
    return out;
  }

  /** Every project with at least one service whose policy is enabled and accepted by `pick`. */
  async targets(
    global: AutoUpdatePolicy,
    skipId: string | null,
    pick: (p: AutoUpdatePolicy) => boolean,
  ): Promise<ProjectTarget[]> {
    const overrides = this.repo.policies('project');
    const out: ProjectTarget[] = [];
    for (const [project, states] of await this.services(skipId)) {
      const override = overrides.get(project) ?? null;
      const services = states
        .map((s) => ({ name: s.name, policy: effectivePolicy(global, override, s.labels) }))
        .filter((s) => s.policy.enabled && pick(s.policy));
      if (services.length === 0) continue;
      out.push({
        project,
        services: services.map((s) => s.name).sort(),
        policy: effectivePolicy(global, override, {}),
        schedules: [...new Set(services.map((s) => s.policy.schedule))],
        versions: Object.fromEntries(services.map((s) => [s.name, s.policy.version_policy])),
      });
    }
    return out;
  }

  /**
   * Checks each service; in update mode, updates the changed running ones together and gates
   * each. Never throws: trouble becomes each service's `failed` result.
   */
  async run(t: ProjectTarget, since = Date.now()): Promise<AutoUpdateItem[]> {
    const item: ItemOf = (service, result, reason, from = null, to = null, toTag = null) => ({
      name: serviceTarget(t.project, service),
      result,
      reason,
      from_digest: from,
      to_digest: to,
      ...(toTag ? { to_tag: toTag } : {}),
    });
    try {
      // A run at start may come before the compose CLI is found (requests wait for it the same way).
      if (this.ctx.composeReady) await this.ctx.composeReady;
      const p = await this.projects.resolveExisting(t.project).catch((err: unknown) => {
        if (err instanceof NotFoundError) return null;
        throw err;
      });
      const states = (await this.services(null, t.project)).get(t.project) ?? [];
      // Containers of a project whose file Berth cannot read here (another machine's, a removed folder,
      // several files): checked against the registry, never updated.
      if (!p) return await checkOnly(this.ctx, t.services, states, item);
      const images = await this.images(p);
      const content = await fs.readFile(p.file, 'utf8');
      const items: AutoUpdateItem[] = [];
      const changes: Change[] = [];
      for (const service of t.services) {
        const state = states.find((s) => s.name === service);
        const ref = images.get(service);
        const imageId = await this.imageOf(state?.ids[0]);
        if (!ref || !imageId) {
          items.push(
            item(
              service,
              'up_to_date',
              ref ? 'The service has no container.' : 'The service has no image to pull (it is built here).',
            ),
          );
          continue;
        }
        const check = await checkImageUpdate(this.ctx.docker, ref, {
          imageId,
          auth: this.ctx.registryAuth?.(ref),
          tags: this.ctx.registryTags,
          tagsMaxAgeMs: Date.now() - since,
        });
        const [from, to] = [check.localDigests[0] ?? null, check.remoteDigest];
        const target = serviceTarget(t.project, service);
        const { move, skipped } = chooseVersionMove(ref, check.newerTags, t.versions[service] ?? 'digest', (r) =>
          this.repo.isBadDigest(target, r),
        );
        if (move) {
          const notPlain = setServiceImages(content, { [service]: { from: ref, to: move.ref } }).left.length > 0;
          if (t.policy.mode === 'notify') items.push(item(service, 'update_available', null, from, null, move.tag));
          else if (!state?.running)
            items.push(
              item(service, 'update_available', 'The service is stopped, so it was not updated.', from, null, move.tag),
            );
          else if (notPlain)
            items.push(
              item(
                service,
                'update_available',
                `The project file does not name ${ref} as a plain value (a variable or an anchor makes it), so Berth cannot move it to ${move.tag}; change it there.`,
                from,
                null,
                move.tag,
              ),
            );
          else changes.push({ service, from, to: null, pin: null, ref, imageId, move });
        } else if (!check.isUpdatable)
          items.push(item(service, 'up_to_date', skipped.length ? skippedTags(skipped) : check.reason, from, to));
        else if (to && this.repo.isBadDigest(target, to)) {
          items.push(
            item(
              service,
              'up_to_date',
              `Skipped ${to}: it failed the health gate before; waiting for a newer image.`,
              from,
              to,
            ),
          );
        } else if (t.policy.mode === 'notify') items.push(item(service, 'update_available', null, from, to));
        // Recreating would start a service someone stopped.
        else if (!state?.running)
          items.push(item(service, 'update_available', 'The service is stopped, so it was not updated.', from, to));
        else changes.push({ service, from, to, pin: pinOf(ref, from), ref, imageId, move: null });
      }
      const outcomes = changes.length > 0 ? await this.update(p, changes, t.policy.settle_seconds) : [];
      items.push(
        ...outcomes.map((o) =>
          item(o.change.service, o.result, o.reason, o.change.from, o.change.to, o.change.move?.tag ?? null),
        ),
      );
      return items.sort((a, b) => a.name.localeCompare(b.name));
    } catch (err) {
      return t.services.map((s) => item(s, 'failed', message(err)));
    }
  }

  /**
   * Under the project's lock (so no user action runs beside it): pull, recreate the changed
   * services, gate each new container, and recreate the ones that fail from their previous digest,
   * pinned; a failing digest is remembered. A failed pull changes nothing; a failed recreate puts
   * every changed service back the same way (the digest is not blamed: compose failed, not the image).
   */
  private async update(p: ExistingProject, changes: Change[], settleSeconds: number): Promise<Outcome[]> {
    let lock;
    try {
      lock = this.projects.activity.begin(p.name, 'auto-update');
    } catch (err) {
      return changes.map((change) => ({ change, result: 'failed', reason: message(err) }));
    }
    const snap = await this.revisions?.snapshot(p).catch(() => null);
    const outcomes = await this.updateLocked(p, changes, settleSeconds, lock.append).catch((err: unknown): Outcome[] =>
      changes.map((change) => ({ change, result: 'failed', reason: message(err) })),
    );
    const trouble = outcomes.find((o) => o.result !== 'updated');
    if (snap)
      await this.revisions!.record(snap, {
        by: 'auto-update',
        source: 'auto-update',
        outcome: trouble ? 'failed' : 'success',
        detail: trouble ? `${trouble.change.service}: ${trouble.reason ?? trouble.result}` : null,
      });
    lock.end(!trouble, trouble?.reason ?? null);
    return outcomes;
  }

  private async updateLocked(
    p: ExistingProject,
    changes: Change[],
    settleSeconds: number,
    onOutput: (chunk: string) => void,
  ): Promise<Outcome[]> {
    const runner = await this.projects.runnerFor(p);
    const services = changes.map((c) => c.service);
    const moves = changes.filter((c) => c.move);
    // An update by version changes the project file's tag, so the pull, the recreate and every later Up take it.
    await moveImages(p.file, moves, 'forward');
    try {
      await pullServices(runner, p, services, onOutput);
    } catch (err) {
      await moveImages(p.file, moves, 'back');
      throw err;
    }
    let verdicts: { change: Change; reason: string | null; blame: boolean }[];
    try {
      await recreateServices(runner, p, services, onOutput);
      verdicts = await Promise.all(
        changes.map(async (change) => ({
          change,
          reason: await this.gate(p.name, change.service, settleSeconds),
          blame: true,
        })),
      );
    } catch (err) {
      verdicts = changes.map((change) => ({ change, reason: message(err), blame: false }));
    }
    const bad = verdicts.filter((v) => v.reason !== null);
    const pins = Object.fromEntries(bad.flatMap((v) => (v.change.pin ? [[v.change.service, v.change.pin]] : [])));
    let restoreError: string | null = null;
    if (Object.keys(pins).length > 0) {
      await recreatePinned(runner, p, this.pinRoot, pins, await this.version(p), onOutput).catch((err: unknown) => {
        restoreError = message(err);
      });
    }
    // A moved service goes back to its previous tag, which the pull left on the previous image.
    const movedBack = bad.flatMap((v) => (v.change.move ? [v.change] : []));
    let moveError: string | null = null;
    if (movedBack.length > 0) {
      await moveImages(p.file, movedBack, 'back')
        .then(() =>
          recreateServices(
            runner,
            p,
            movedBack.map((c) => c.service),
            onOutput,
          ),
        )
        .catch((err: unknown) => {
          moveError = message(err);
        });
    }
    return Promise.all(
      verdicts.map(async ({ change, reason, blame }): Promise<Outcome> => {
        if (reason === null) return { change, result: 'updated', reason: null };
        if (change.move) {
          if (blame) this.repo.rememberBadDigest(serviceTarget(p.name, change.service), change.move.ref);
          return moveError
            ? { change, result: 'failed', reason: `${reason} Going back to ${change.ref} failed too: ${moveError}` }
            : {
                change,
                result: 'rolled_back',
                reason: `${reason} The service runs ${change.ref} again and the project file names it again. Auto-update skips ${change.move.tag} from now on.`,
              };
        }
        if (blame && change.to) this.repo.rememberBadDigest(serviceTarget(p.name, change.service), change.to);
        if (!change.pin)
          return { change, result: 'failed', reason: `${reason} The previous image has no digest to go back to.` };
        if (restoreError)
          return {
            change,
            result: 'failed',
            reason: `${reason} Going back to ${change.from} failed too: ${restoreError}`,
          };
        // The pull moved the project's tag to the failing image; a later Up by that tag must not bring it back.
        const tag = await restoreTag(this.ctx.docker, change.ref, change.imageId);
        return {
          change,
          result: 'rolled_back',
          reason: `${reason} The service runs ${change.from} again, pinned by digest.${tag} Auto-update skips the failing image until a newer one appears.`,
        };
      }),
    );
  }

  /** Null when every container of the service passes the gate, else why not. */
  private async gate(project: string, service: string, settleSeconds: number): Promise<string | null> {
    const ids = (await this.services(null, project)).get(project)?.find((s) => s.name === service)?.ids ?? [];
    if (ids.length === 0) return 'No container of the service exists after the update.';
    const verdicts = await Promise.all(ids.map((id) => healthGate(this.ctx.docker, id, settleSeconds * 1000)));
    const failed = verdicts.find((v) => !v.ok);
    return failed && !failed.ok ? failed.reason : null;
  }

  /** Each service's image reference as the CLI resolves the file (variables filled in). */
  private async images(p: ExistingProject): Promise<Map<string, string>> {
    const { yaml } = await resolvedConfig(this.projects.runner(), p);
    const services = (parseCompose(yaml).data.services ?? {}) as Record<string, { image?: unknown }>;
    return new Map(
      Object.entries(services).flatMap(([name, s]) => (typeof s?.image === 'string' ? [[name, s.image]] : [])),
    );
  }

  private async imageOf(id: string | undefined): Promise<string | null> {
    if (!id) return null;
    return (await this.ctx.docker.inspectContainer(id)).Image;
  }

  /** The project file's `version`, which the pin override must repeat. */
  private async version(p: ExistingProject): Promise<string | null> {
    const v = (await this.projects.parseExisting(p)).parsed.data.version;
    return typeof v === 'string' || typeof v === 'number' ? String(v) : null;
  }

  private get pinRoot(): string {
    return path.join(this.ctx.config.dataDir, '.tmp', 'auto-update-pins');
  }
}

/** `repo@<digest>` for the image a service ran, so a rollback needs no tag (which now names the new image). */
function pinOf(ref: string, digest: string | null): string | null {
  const parsed = parseImageReference(ref);
  return digest && !('error' in parsed) ? `${parsed.repository}@${digest}` : null;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
