import type { FastifyBaseLogger } from 'fastify';
import type { ContainerSpec, Engine } from '../../docker/engine';
import { swapContainer, type SwapOptions, type SwapResult } from './swap';
import { RestoreFailedError } from '../../errors';

export type { ContainerSpec } from '../../docker/engine';

export interface ReplaceResult {
  id: string;
  name: string;
}

export interface ReplaceOptions {
  /** The replacement's name; default the old container's. */
  name?: string;
  /** Networks beyond the one in the spec (the engine takes one at create); connected before the swap. */
  extraNetworks?: { name: string; endpoint: object }[];
  log: FastifyBaseLogger;
}

/**
 * Replaces a container without losing it (see swapContainer): if the replacement cannot be
 * created or started, the old container is as it was and the failure is thrown.
 */
export async function replaceContainer(
  engine: Engine,
  oldRef: string,
  spec: ContainerSpec,
  opts: ReplaceOptions,
): Promise<ReplaceResult> {
  const out = await swapContainer(
    engine,
    oldRef,
    { spec, extraNetworks: opts.extraNetworks, name: opts.name },
    { tempTag: 'new', log: opts.log },
  );
  return settled(out, opts);
}

/**
 * replaceContainer with a gate the started replacement must pass: when it fails the gate, the
 * replacement is removed, the old container is back as it was, and the gate's reason is returned.
 */
export async function replaceContainerGated(
  engine: Engine,
  oldRef: string,
  spec: ContainerSpec,
  opts: ReplaceOptions & { gate: NonNullable<SwapOptions['gate']> },
): Promise<ReplaceResult | { rolledBack: string }> {
  const out = await swapContainer(
    engine,
    oldRef,
    { spec, extraNetworks: opts.extraNetworks, name: opts.name },
    { tempTag: 'new', gate: opts.gate, log: opts.log },
  );
  if (out.result === 'rolled_back' && out.error === null && out.problems.length === 0)
    return { rolledBack: out.reason };
  return settled(out, opts);
}

function settled(out: SwapResult, opts: ReplaceOptions): ReplaceResult {
  if (out.result === 'swapped') return { id: out.id, name: out.name };
  if (out.result === 'not_created') throw out.error;
  const failure = out.error ?? new Error(out.reason);
  if (out.problems.length) {
    opts.log.error(
      { container: out.name, problems: out.problems },
      'replacing a container failed and restoring the old one failed too',
    );
    throw new RestoreFailedError(
      `${failure.message} Restoring the previous container also failed (${out.problems.join('; ')}); it is named ${out.heldAs}.`,
    );
  }
  throw failure;
}
