import type { AppRevision, AppRollbackResult } from '@berth/contract';
import type { Uses } from '../../context';
import type { ContainerSpec } from '../../docker/engine';
import { NotFoundError } from '../../errors';
import { inspectContainer, recreateSpec } from '../apps/containers';
import { imageDefaults } from '../apps/image-defaults';
import { healthGate } from '../apps/health-gate';
import { replaceContainerGated } from '../apps/replace';
import { createAndStart, findContainer } from '../deploy/deploy-steps';
import { pinnedDigest } from '../images/images-update';
import { containerFeatures } from '../policy/container-features';
import type { Actor, PolicyGate } from '../policy';
import { appRevisionOf, type RevisionMeta, type RevisionStore } from './store';

/** How long the recreated container must keep running (or report healthy) before the old one goes. */
const SETTLE_MS = 3_000;
const COMPOSE_PROJECT = 'com.docker.compose.project';

/** Networks beyond the spec's one (the engine takes one at create), kept beside the spec. */
type ExtraNetworks = { name: string; endpoint: object }[];
interface StoredSpec extends ContainerSpec {
  BerthExtraNetworks?: ExtraNetworks;
}

/**
 * Apps: each deploy and edit through the form, each change in place (rename, resources) and each
 * update (one-click, auto-update) keeps the container's full spec (sealed: it holds the
 * environment values) and the digest of the image it ran, and a rollback recreates it exactly,
 * pinned to that digest, through the policy gate and the gated replace.
 */
export class AppRevisions {
  constructor(
    private readonly ctx: Uses<'docker' | 'log'>,
    private readonly environment: string,
    private readonly store: RevisionStore,
    private readonly policy: PolicyGate,
  ) {}

  /** Records the container `name` made from `spec`. Never throws: a failure is logged. */
  async record(
    name: string,
    spec: ContainerSpec,
    meta: RevisionMeta,
    extraNetworks: ExtraNetworks = [],
  ): Promise<AppRevision | null> {
    const stored: StoredSpec = extraNetworks.length ? { ...spec, BerthExtraNetworks: extraNetworks } : spec;
    try {
      const info = await inspectContainer(this.ctx.docker, name);
      const image = String(spec.Image ?? info.Config.Image);
      const row = this.store.repo.apps.add(
        {
          environment: this.environment,
          app: name,
          created_at: new Date().toISOString(),
          created_by: meta.by,
          source: meta.source,
          outcome: meta.outcome,
          detail: meta.detail ?? null,
          image,
          digest: await pinnedDigest(this.ctx.docker, image, info.Image),
          spec_sealed: this.store.seal(JSON.stringify(stored)),
          rollback_of: meta.rollbackOf ?? null,
        },
        this.store.keep,
      );
      return appRevisionOf(row);
    } catch (err) {
      this.ctx.log.error({ app: name, err: (err as Error).message }, 'recording an app revision failed');
      return null;
    }
  }

  /**
   * Records the app `name` as its container is now, after a change in place or an update: the spec
   * an update would recreate it from. A compose service's container is its project's (the project
   * keeps revisions of its own). Never throws.
   */
  async recordCurrent(name: string, meta: RevisionMeta): Promise<AppRevision | null> {
    try {
      const info = await inspectContainer(this.ctx.docker, name);
      if (info.Config.Labels?.[COMPOSE_PROJECT]) return null;
      const defaults = await imageDefaults(this.ctx.docker, info.Image, this.ctx.log);
      const spec = recreateSpec(info, defaults, info.Config.Image);
      return await this.record(name, spec.create, meta, spec.extraNetworks);
    } catch (err) {
      this.ctx.log.error({ app: name, err: (err as Error).message }, 'recording an app revision failed');
      return null;
    }
  }

  /** A renamed app keeps its history under the new name, and the rename is a revision of its own. */
  async renamed(from: string, to: string, by: string): Promise<void> {
    this.store.repo.apps.rename(this.environment, from, to);
    await this.recordCurrent(to, { by, source: 'rename', outcome: 'success', detail: `Renamed from ${from}.` });
  }

  list(name: string): AppRevision[] {
    return this.store.repo.apps.list(this.environment, name).map(appRevisionOf);
  }

  /** Recreates `name` from revision `rev`'s spec, its image pinned by digest; the old container stays if the new one fails its gate. */
  async rollback(name: string, rev: number, actor: Actor): Promise<AppRollbackResult> {
    const row = this.store.repo.apps.get(this.environment, name, rev);
    if (!row) throw new NotFoundError('revision', `${rev} of app ${name}`);
    const sealed = this.store.open(row.spec_sealed);
    if (sealed === null) throw new NotFoundError('revision', `${rev} of app ${name} (sealed under another key)`);
    const { BerthExtraNetworks: extraNetworks = [], ...stored } = JSON.parse(sealed) as StoredSpec;
    const spec: ContainerSpec = { ...stored, Image: row.digest ?? row.image };
    const old = await findContainer(this.ctx.docker, name);
    const before = old ? containerFeatures((await inspectContainer(this.ctx.docker, old.id)).HostConfig) : [];
    await this.policy.check(actor, containerFeatures(spec.HostConfig), { before });
    const meta = { by: actor.username, source: 'rollback', rollbackOf: rev } as const;
    let id: string;
    if (old) {
      const out = await replaceContainerGated(this.ctx.docker, old.id, spec, {
        name,
        extraNetworks,
        log: this.ctx.log,
        gate: (created) => healthGate(this.ctx.docker, created, SETTLE_MS),
      });
      if ('rolledBack' in out) {
        const revision = await this.record(
          name,
          spec,
          { ...meta, outcome: 'failed', detail: out.rolledBack },
          extraNetworks,
        );
        if (!revision) throw new Error(out.rolledBack);
        return { id: old.id, name, revision };
      }
      id = out.id;
    } else {
      id = (await createAndStart(this.ctx.docker, name, spec, this.ctx.log)).id;
      for (const n of extraNetworks) await this.ctx.docker.connectNetwork(n.name, id, n.endpoint);
    }
    const revision = await this.record(
      name,
      spec,
      { ...meta, outcome: 'success', detail: `Rolled back to revision ${rev}.` },
      extraNetworks,
    );
    if (!revision) throw new Error(`App ${name} was rolled back, but the revision could not be recorded.`);
    return { id, name, revision };
  }
}
