import {
  DEFAULT_POLICY,
  EnvironmentPolicy,
  featureKey,
  judgePolicy,
  LOCAL_ENVIRONMENT,
  type EnvironmentPolicyBody,
  type PolicyAnswer,
  type PolicyFeature,
  type PolicyViolation,
  type Role,
} from '@berth/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { PoliciesRepo } from '../../db/policies-repo';
import { NotFoundError, PolicyDeniedError } from '../../errors';
import { protectedPaths } from './protected-paths';
import { resolveHostPath } from './resolve-path';
import { NO_OWN_MOUNTS, type OwnMounts } from './self-mounts';

/** What the judge reads of Berth's config: where its data and the engine are, and the CLI's home for `~`. */
type PolicyConfig = Pick<Config, 'dataDir' | 'composeDir' | 'dockerHost' | 'cliEnv'>;

/** Who asks for a container: the request's user (its role decides what the policy allows). */
export interface Actor {
  role: Role;
  username: string;
}

/**
 * Background work that re-runs what already exists (auto-update's pull and recreate) acts
 * unrestricted: it repeats a configuration someone was allowed to make and cannot widen it.
 */
export const SYSTEM_ACTOR: Actor = { role: 'admin', username: 'berth (background)' };

export interface CheckOptions {
  /** Folders a bind may always mount the insides of (the project's own folder). */
  ownDirs?: readonly string[];
  /** Where relative bind sources start. */
  base?: string;
  /** What a recreate replaces: refusals it already had are kept, not widened. */
  before?: readonly PolicyFeature[];
  /** Line and column of a compose document field, for the message. */
  locate?: (at: readonly (string | number)[]) => { line: number; col: number } | null;
}

/** The policy of each environment, and the one place that judges a request against it. */
export class PolicyService {
  constructor(
    private readonly repo: PoliciesRepo,
    private readonly config: PolicyConfig,
    private readonly environmentExists: (id: string) => boolean,
    private readonly log: FastifyBaseLogger,
    /** What on the engine Berth runs beside (`local`) is Berth's own (nothing when it runs on the host). */
    private readonly ownOnLocal: () => Promise<OwnMounts> = () => Promise.resolve(NO_OWN_MOUNTS),
  ) {}

  private known(env: string): void {
    if (!this.environmentExists(env)) throw new NotFoundError('environment', env);
  }

  policyOf(env: string): EnvironmentPolicy {
    const row = this.repo.get(env);
    if (!row) return DEFAULT_POLICY;
    const parsed = EnvironmentPolicy.safeParse(JSON.parse(row.policy));
    if (parsed.success) return parsed.data;
    // A row no current schema reads must not loosen anything: the defaults are the safe reading.
    this.log.warn({ environment: env }, 'stored policy unreadable; the defaults apply');
    return DEFAULT_POLICY;
  }

  async answer(env: string): Promise<PolicyAnswer> {
    this.known(env);
    const row = this.repo.get(env);
    // For the forms' marks only (the gate asks again): an engine that cannot say leaves them out.
    const own =
      env === LOCAL_ENVIRONMENT
        ? await this.ownOnLocal().catch((err: unknown) => {
            this.log.warn({ err }, "Berth's own container unknown: the policy answer leaves its mounts out");
            return NO_OWN_MOUNTS;
          })
        : NO_OWN_MOUNTS;
    return {
      environment: env,
      policy: this.policyOf(env),
      always_refused: [...new Map(protectedPaths(this.config, own.paths).map((p) => [p.path, p])).values()],
      protected_volumes: own.volumes,
      protected_containers: own.containers,
      updated_at: row?.updated_at ?? null,
      updated_by: row?.updated_by ?? null,
    };
  }

  put(env: string, body: EnvironmentPolicyBody, by: string): Promise<PolicyAnswer> {
    this.known(env);
    const policy = EnvironmentPolicy.parse(body);
    this.repo.put({
      environment: env,
      policy: JSON.stringify(policy),
      updated_at: new Date().toISOString(),
      updated_by: by,
    });
    return this.answer(env);
  }

  /** Forgets a removed environment's policy (a new one of the same id starts on the defaults). */
  forget(env: string): void {
    this.repo.remove(env);
  }

  /** The gate of one environment: `local` is the engine beside Berth (links resolved on this filesystem). */
  gate(env: string, local: boolean): PolicyGate {
    return new PolicyGate(
      this,
      env,
      local,
      this.config,
      local ? this.ownOnLocal : () => Promise.resolve(NO_OWN_MOUNTS),
    );
  }
}

/** Features whose judgement depends on what is Berth's own. */
const MOUNT_RULES = new Set<PolicyFeature['rule']>(['bind_mounts', 'volume', 'volumes_from', 'namespace']);

/** One environment's judge: resolves bind paths, asks the contract's judgePolicy, throws 403 policy_denied. */
export class PolicyGate {
  constructor(
    private readonly policies: PolicyService,
    readonly environment: string,
    private readonly local: boolean,
    private readonly config: PolicyConfig,
    /** Berth's own mounts and container on this engine (refused whatever the policy). */
    private readonly own: () => Promise<OwnMounts>,
  ) {}

  private resolved(features: readonly PolicyFeature[], opts: CheckOptions): PolicyFeature[] {
    const home = this.config.cliEnv.HOME;
    return features.map((f) =>
      f.rule === 'bind_mounts'
        ? { ...f, value: resolveHostPath(f.value, { base: opts.base, home, real: this.local }) }
        : f,
    );
  }

  /**
   * What of `features` the actor may not have (already-present ones of `before` excepted). A
   * mount is also judged against Berth's own mounts, volumes and container, so judging one waits
   * until those are known (or fails with the engine's error: never judged without them).
   */
  async violations(
    actor: Actor,
    features: readonly PolicyFeature[],
    opts: CheckOptions = {},
  ): Promise<PolicyViolation[]> {
    if (actor.role === 'admin') return [];
    const mounts = [...features, ...(opts.before ?? [])].some((f) => MOUNT_RULES.has(f.rule));
    const own = mounts ? await this.own() : NO_OWN_MOUNTS;
    const ctx = {
      role: actor.role,
      environment: this.environment,
      policy: this.policies.policyOf(this.environment),
      protectedPaths: protectedPaths(this.config, own.paths),
      protectedVolumes: own.volumes,
      protectedContainers: own.containers,
      ownDirs: (opts.ownDirs ?? []).map((d) => resolveHostPath(d, { real: this.local })),
    };
    const found = judgePolicy(this.resolved(features, opts), ctx);
    if (!opts.before?.length || !found.length) return found;
    const had = new Set(judgePolicy(this.resolved(opts.before, opts), ctx).map(featureKey));
    return found.filter((v) => !had.has(featureKey(v)));
  }

  /** Whether the container of id `id` is Berth's own (whose files hold its database and keys). */
  async isBerth(id: string): Promise<boolean> {
    return (await this.own()).containers.includes(id);
  }

  /** Throws 403 policy_denied naming each refused field, its rule and where an admin changes it. */
  async check(actor: Actor, features: readonly PolicyFeature[], opts: CheckOptions = {}): Promise<void> {
    const found = await this.violations(actor, features, opts);
    if (!found.length) return;
    const fields = found.map((v) => {
      const pos = v.at && opts.locate ? opts.locate(v.at) : null;
      return { field: v.field, rule: v.rule, message: v.message, ...(pos ? { line: pos.line, column: pos.col } : {}) };
    });
    const detail = fields
      .map((f) => `${f.field}${f.line ? ` (line ${f.line}, column ${f.column})` : ''}: ${f.message}`)
      .join(' ');
    throw new PolicyDeniedError(detail, fields);
  }
}
