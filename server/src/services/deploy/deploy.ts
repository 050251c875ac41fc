import type { FastifyBaseLogger } from 'fastify';
import {
  deployFormFeatures,
  formatImageReference,
  parseImageReference,
  type DeployRequest,
  type DeployResult,
} from '@berth/contract';
import type { Engine, RegistryAuth } from '../../docker/engine';
import { inspectContainer } from '../apps/containers';
import { createAndStart, findContainer, imagePresent, networkExists } from './deploy-steps';
import { startPull } from '../images/engine-images';
import { replaceContainer } from '../apps/replace';
import { ConflictError, EngineError, ImagePullFailedError, NotFoundError, ValidationError } from '../../errors';
import { buildContainerSpec, keepRandomHostPorts } from './deploy-spec';
import type { VariablesService } from '../variables/variables';
import { containerFeatures } from '../policy/container-features';
import type { Actor, PolicyGate } from '../policy';
import type { AppRevisions } from '../revisions/app-revisions';

/** Deploys an app from the four-step form (or a template), or replaces one in edit mode. */
export class DeployService {
  constructor(
    private readonly docker: Engine,
    private readonly variables: VariablesService,
    private readonly log: FastifyBaseLogger,
    private readonly policy: PolicyGate,
    /** Each deploy and edit is kept as a revision (issue 34). */
    readonly revisions: AppRevisions,
    /** The stored credential for an image reference (ctx.registryAuth), or undefined. */
    private readonly registryAuth: (image: string) => RegistryAuth | undefined = () => undefined,
  ) {}

  async deploy(req: DeployRequest, actor: Actor): Promise<DeployResult> {
    // Everything the payload alone can tell is checked before the engine is asked anything.
    const vars = this.variables.substituter();
    const spec = buildContainerSpec(req, vars);
    const old = req.edit ? await findContainer(this.docker, req.id!) : null;
    if (req.edit && !old) throw new NotFoundError('app', req.id!);
    // An edit keeps what the app already had (an admin may have made it) but cannot widen it.
    const before = old ? containerFeatures((await inspectContainer(this.docker, old.id)).HostConfig) : [];
    const features = deployFormFeatures({ ...req, volumes: req.volumes.map((v) => ({ bind: vars.apply(v.bind) })) });
    await this.policy.check(actor, features, { before });
    const holder = await findContainer(this.docker, req.name);
    if (holder && holder.id !== old?.id)
      throw new ConflictError(`The name "${req.name}" is already in use by another container; choose another name.`);
    if (req.network && !(await networkExists(this.docker, req.network))) {
      throw new ValidationError(`network: Network "${req.network}" does not exist.`, [
        { field: 'network', message: `Network "${req.network}" does not exist.` },
      ]);
    }
    spec.Image = await this.ensureImage(req.image);

    if (old) {
      const info = await inspectContainer(this.docker, old.id);
      keepRandomHostPorts(spec, { configured: info.HostConfig.PortBindings, published: info.NetworkSettings.Ports });
      const replaced = await replaceContainer(this.docker, old.id, spec, { name: req.name, log: this.log });
      await this.revisions.record(req.name, spec, { by: actor.username, source: 'edit', outcome: 'success' });
      const now = await findContainer(this.docker, replaced.id);
      return { id: replaced.id, name: replaced.name, status: now?.status ?? 'running' };
    }
    const made = await createAndStart(this.docker, req.name, spec, this.log);
    await this.revisions.record(req.name, spec, { by: actor.username, source: 'deploy', outcome: 'success' });
    return made;
  }

  /**
   * The image as the engine will be asked for it, pulled first when it is not on the host. A
   * reference without tag or digest means :latest (the engine would otherwise pull every tag).
   */
  private async ensureImage(image: string): Promise<string> {
    const ref = parseImageReference(image);
    if ('error' in ref) throw new ValidationError(`image: ${ref.error}`, [{ field: 'image', message: ref.error }]);
    const full = formatImageReference(ref.tag || ref.digest ? ref : { ...ref, tag: 'latest' });
    if (await imagePresent(this.docker, full)) return full;
    try {
      const pull = await startPull(this.docker, ref, { auth: this.registryAuth(full) });
      await pull.follow();
    } catch (err) {
      if (!(err instanceof EngineError || err instanceof NotFoundError)) throw err;
      const status = err.statusCode === 404 ? 404 : 502;
      throw new ImagePullFailedError(
        `Image ${full} is not on this host and could not be pulled: ${err.message}`,
        status,
      );
    }
    return full;
  }
}
