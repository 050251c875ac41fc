import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { SelfUpdateOutcome } from '@berth/contract';
import type { Engine } from '../../docker/engine';
import { recreateSpec, type ImageDefaults } from '../apps/containers';
import { inspectImage } from '../images/engine-images';
import { swapSelf, type SwapOutcome } from './self-container';
import { writeFileAtomic } from '../../lib/atomic-write';

/** Where the updater leaves how the last self-update ended, for the Berth that runs afterwards. */
export const OUTCOME_FILE = 'self-update.json';

export interface RunOptions {
  /** Berth's container that is being replaced. */
  target: string;
  /** The image reference to run (already pulled by the Berth that started the update). */
  image: string;
  dataDir: string;
  log: FastifyBaseLogger;
  /** Pause before stopping Berth, so its answer to the update request reaches the browser. */
  graceMs?: number;
  healthTimeoutMs?: number;
  stableMs?: number;
  pollMs?: number;
}

/** What the old image gave the container by default; null when it cannot be read (then everything is copied). */
export async function imageDefaults(
  docker: Engine,
  imageId: string,
  log: FastifyBaseLogger,
): Promise<ImageDefaults | null> {
  try {
    return ((await inspectImage(docker, imageId)) as { Config?: ImageDefaults }).Config ?? null;
  } catch (err) {
    log.info({ err, image: imageId }, 'old image not readable; copying the whole container configuration');
    return null;
  }
}

/**
 * The updater's whole job: replace `target` with a container of the same configuration running
 * `image`, keep it only if it comes up healthy, and record the outcome in the data folder.
 */
export async function runSelfUpdate(docker: Engine, opts: RunOptions): Promise<SwapOutcome> {
  await new Promise((r) => setTimeout(r, opts.graceMs ?? 2000));
  let outcome: SwapOutcome;
  try {
    const old = await docker.inspectContainer(opts.target);
    const spec = recreateSpec(old, await imageDefaults(docker, old.Image, opts.log), opts.image);
    outcome = await swapSelf(docker, old.Id, spec, {
      log: opts.log,
      timeoutMs: opts.healthTimeoutMs ?? 120_000,
      stableMs: opts.stableMs ?? 15_000,
      pollMs: opts.pollMs ?? 1000,
    });
  } catch (err) {
    outcome = { result: 'failed', detail: `The update stopped before the swap: ${(err as Error).message}` };
  }
  opts.log.info({ outcome }, 'self-update finished');
  await writeOutcome(opts.dataDir, { ...outcome, image: opts.image, finishedAt: new Date().toISOString() }, opts.log);
  return outcome;
}

async function writeOutcome(dataDir: string, outcome: SelfUpdateOutcome, log: FastifyBaseLogger): Promise<void> {
  try {
    await writeFileAtomic(path.join(dataDir, OUTCOME_FILE), JSON.stringify(outcome), { mode: 0o600 });
  } catch (err) {
    // The outcome is also in the updater's log; a read-only data folder must not fail the update.
    log.error({ err }, 'could not record the self-update outcome');
  }
}

/** The last recorded outcome, or null when there is none (or it is unreadable). */
export async function readOutcome(dataDir: string, log: FastifyBaseLogger): Promise<SelfUpdateOutcome | null> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dataDir, OUTCOME_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log.warn({ err }, 'could not read the self-update outcome');
    return null;
  }
  try {
    return SelfUpdateOutcome.parse(JSON.parse(text));
  } catch (err) {
    log.warn({ err }, 'the self-update outcome file is damaged; ignoring it');
    return null;
  }
}
