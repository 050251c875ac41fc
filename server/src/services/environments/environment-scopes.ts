import { LOCAL_ENVIRONMENT } from '@berth/contract';
import { NotFoundError } from '../../errors';

/** What every environment's bundle of engine-backed services can do when it is dropped. */
export interface Closable {
  close(): Promise<void> | void;
}

/**
 * The live engine-backed service bundles, one per environment, built on first use and kept
 * until the environment changes or Berth stops. `local` is built at start.
 */
export class EnvironmentScopes<S extends Closable> {
  private readonly scopes = new Map<string, S>();

  /** `build` answers null for an environment that does not exist. */
  constructor(private readonly build: (id: string) => S | null) {}

  get local(): S {
    return this.get(LOCAL_ENVIRONMENT);
  }

  /** The environment's services, built now if this is their first use; 404 for an unknown one. */
  get(id: string): S {
    const existing = this.scopes.get(id);
    if (existing) return existing;
    const built = this.build(id);
    if (!built) throw new NotFoundError('environment', id);
    this.scopes.set(id, built);
    return built;
  }

  /** The scopes built so far (for shutdown work that concerns every environment). */
  built(): S[] {
    return [...this.scopes.values()];
  }

  /** Drops an environment's services (it was edited or deleted); the next use builds them again. */
  async forget(id: string): Promise<void> {
    const scope = this.scopes.get(id);
    this.scopes.delete(id);
    await scope?.close();
  }

  async closeAll(): Promise<void> {
    const all = [...this.scopes.values()];
    this.scopes.clear();
    for (const scope of all.reverse()) await scope.close();
  }
}
