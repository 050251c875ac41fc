import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/database';
import type { Engine, RegistryAuth } from './docker/engine';
import type { EngineStatus } from './docker/engine-status';
import type { ComposeCli } from './compose/cli';
import type { AgentStatsMessage } from './docker/agent-stats-source';

/** Tag lists of image repositories, kept for a while (per environment: credentials differ). */
export interface ImageTagLookup {
  /** Every tag of `image`'s repository, read again when the kept list is older than `maxAgeMs`; throws saying why it cannot. */
  list(image: string, maxAgeMs: number): Promise<string[]>;
  /** The kept list, without asking the registry; null when none is kept. */
  cached(image: string): string[] | null;
}

/** What buildApp constructs once and hands to every route module and service. */
export interface AppContext {
  config: Config;
  db: Db;
  /** The Docker engine (the facade; never dockerode itself). */
  docker: Engine;
  engine: EngineStatus;
  /** The compose CLI, null when none was found (or while it is still being looked for). */
  compose: ComposeCli | null;
  /** Set while the compose CLI is being looked for at start; null once it is known. */
  composeReady: Promise<void> | null;
  /** The compose CLI did not answer its probe in time (unknown, not absent): looked for again in the background. */
  composeUnknown?: boolean;
  /** While the CLI is unknown: looks again now (the first compose request after a slow start). */
  composeRetry?: () => Promise<void>;
  log: FastifyBaseLogger;
  /** The engine runs on another machine (a tcp:// or ssh:// environment): paths in its labels are not ours to read. */
  remoteEngine?: boolean;
  /** An agent environment: subscribes to the stats its agent pushes (read from that host's cgroups). */
  agentStats?: (fn: (msg: AgentStatsMessage) => void) => () => void;
  version: string;
  /**
   * The stored registry credential this environment may use for an image reference (chosen by its
   * registry host), or undefined: pull anonymously. Set on each environment's context by buildServices
   * (services/registries); absent in contexts built without the database's registries.
   */
  registryAuth?: (image: string) => RegistryAuth | undefined;
  /** The tags of an image's repository in its registry, read with this environment's stored registry (services/registries). */
  registryTags?: ImageTagLookup;
  /** Cleanups run on close, last registered first. */
  onClose: (fn: () => Promise<void> | void) => void;
  /**
   * Background work (schedulers, start-up sweeps, the stats recorder) runs once the server listens
   * and answers, not before: registered before that, `fn` waits for it; after, it runs at once.
   */
  afterStart: (fn: () => Promise<void> | void) => void;
}

/**
 * The part of an AppContext a service uses: some of its members and some keys of its config
 * (`Uses<'docker' | 'log', 'dataDir'>`). A service declares this instead of the whole context,
 * so what it depends on is written in its constructor.
 */
export type Uses<K extends Exclude<keyof AppContext, 'config'>, C extends keyof Config = never> = Pick<AppContext, K> &
  ([C] extends [never] ? unknown : { config: Pick<Config, C> });
