import type { FastifyBaseLogger } from 'fastify';
import type { ProtectedPath, ProtectedVolume } from '@berth/contract';
import type { Config } from '../../config';
import type { Engine } from '../../docker/engine';
import { bareName } from '../../docker/names';
import { findSelfContainer } from '../self-update/self-container';
import { selfMountSources } from './protected-paths';

/** What of the engine Berth runs beside is Berth's own: host paths behind its mounts, its named volumes, its container. */
export interface OwnMounts {
  paths: ProtectedPath[];
  volumes: ProtectedVolume[];
  /** Its name and id, as a `volumes_from` would name it. */
  containers: string[];
}

export const NO_OWN_MOUNTS: OwnMounts = { paths: [], volumes: [], containers: [] };

/**
 * The one owner of "what is Berth's own" for the policy: Berth's container found once (it does
 * not change while Berth runs), asked again after a failure, so an engine that was down at start
 * never leaves the list empty for good (a check waits for it, or fails with the engine's error).
 */
export class SelfMounts {
  private found: Promise<OwnMounts> | null = null;

  constructor(
    private readonly engine: Engine,
    private readonly config: Pick<Config, 'containerName' | 'hostname' | 'dataDir' | 'composeDir'>,
    log: FastifyBaseLogger,
  ) {
    this.get().catch((err: unknown) => log.warn({ err }, "could not read Berth's own container for the policy yet"));
  }

  get(): Promise<OwnMounts> {
    this.found ??= this.look().catch((err: unknown) => {
      this.found = null;
      throw err;
    });
    return this.found;
  }

  private async look(): Promise<OwnMounts> {
    const { containerName, hostname } = this.config;
    const self = (await findSelfContainer(this.engine, { containerName, hostname })).container;
    if (!self) return NO_OWN_MOUNTS;
    const volumes = (self.Mounts ?? []).flatMap((m) =>
      m.Type === 'volume' && m.Name
        ? [{ name: m.Name, what: `Berth's own data (its container mounts it at ${m.Destination ?? '?'})` }]
        : [],
    );
    return {
      paths: selfMountSources(self, this.config),
      volumes,
      containers: [bareName(self.Name), self.Id],
    };
  }
}
