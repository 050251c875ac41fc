import {
  parseImageReference,
  type ImageContainerConfig,
  type ImageDetail,
  type ImageReference,
  type ImageSummary,
  type PullProgress,
} from '@berth/contract';
import type { ByteStream, Engine, RegistryAuth, RemovedImage } from '../../docker/engine';
import { followEngineStream, toProgress } from './engine-progress';

export type { RemovedImage } from '../../docker/engine';

/** Omit that keeps the known keys of a passthrough (index-signature) object type. */
export type Without<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: T[P] };

export type EngineImage = Without<ImageSummary, 'inUse' | 'usedTags'>;
export type EngineImageDetail = Without<ImageDetail, 'inUse' | 'usedTags'>;

/** Engines before API 1.42 list untagged images with these placeholders; they mean "none". */
const placeholder = (s: string) => s === '<none>:<none>' || s === '<none>@<none>';
const realNames = (list: string[] | null | undefined) => (list ?? []).filter((s) => !placeholder(s));

type RunConfig =
  { Cmd?: unknown; Entrypoint?: unknown; ExposedPorts?: unknown; Labels?: unknown; Env?: unknown } | null | undefined;

const stringList = (v: unknown): string[] | null =>
  Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : null;
const record = <T>(v: unknown): Record<string, T> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, T>) : null;

function runConfig(config: RunConfig, legacy: RunConfig): ImageContainerConfig {
  // Config is the image's real run configuration; ContainerConfig (gone in newer engines) described the
  // build step that made the image, so it only fills gaps.
  const pick = <K extends keyof NonNullable<RunConfig>>(key: K) => config?.[key] ?? legacy?.[key];
  return {
    Cmd: stringList(pick('Cmd')),
    Entrypoint: stringList(pick('Entrypoint')),
    ExposedPorts: record(pick('ExposedPorts')),
    Labels: record<string>(pick('Labels')),
    Env: stringList(pick('Env')),
  };
}

/** The engine says -1 when it did not count shared layers (API before 1.42 ignores `shared-size`). */
export const sharedSize = (n: number | undefined): number | null => (typeof n === 'number' && n >= 0 ? n : null);

export async function listImages(engine: Engine): Promise<EngineImage[]> {
  const images = await engine.listImages();
  return images.map((i) => ({
    ...i,
    RepoTags: realNames(i.RepoTags),
    RepoDigests: realNames(i.RepoDigests),
    Created: new Date(i.Created * 1000).toISOString(),
    Size: i.Size,
    VirtualSize: i.VirtualSize ?? i.Size,
    SharedSize: sharedSize(i.SharedSize),
    Labels: i.Labels ?? {},
  }));
}

export async function inspectImage(engine: Engine, id: string): Promise<EngineImageDetail> {
  const i = await engine.inspectImage(id);
  return {
    ...i,
    RepoTags: realNames(i.RepoTags),
    RepoDigests: realNames(i.RepoDigests),
    Created: i.Created,
    Size: i.Size,
    VirtualSize: i.VirtualSize ?? i.Size,
    Labels: i.Config?.Labels ?? {},
    Architecture: i.Architecture ?? '',
    Os: i.Os ?? '',
    ContainerConfig: runConfig(i.Config, i.ContainerConfig),
  };
}

/** Removes an image; `force` also drops every tag of a multi-tagged image (containers still block it). */
export async function removeImage(engine: Engine, id: string, force: boolean): Promise<RemovedImage[]> {
  return engine.removeImage(id, force);
}

/** Removes one `repo:tag` reference without force: the image itself stays while other tags name it. */
export async function untagImage(engine: Engine, tag: string): Promise<void> {
  await engine.removeImage(tag, false);
}

/**
 * After a rollback: the pull moved `ref`'s tag to the image that failed; this points it back at
 * `imageId` (the image that runs again), so a later recreate or `docker-compose up` by that tag
 * starts the good image, not the failing one. Never throws: answers the sentence a run's reason
 * ends with (empty for a reference by digest, which has no tag to move).
 */
export async function restoreTag(engine: Engine, ref: string, imageId: string): Promise<string> {
  const parsed = parseImageReference(ref);
  if ('error' in parsed || parsed.digest) return '';
  const tag = `${parsed.repository}:${parsed.tag ?? 'latest'}`;
  try {
    await engine.tagImage(imageId, parsed.repository, parsed.tag ?? 'latest');
    return ` The tag ${tag} on this host names the previous image again, so a manual Up or recreate keeps it.`;
  } catch (err) {
    return ` The tag ${tag} could not be pointed back at the previous image (${err instanceof Error ? err.message : String(err)}), so a manual Up or recreate would start the failing image.`;
  }
}

export interface RunningPull {
  /** Reads the engine's progress to the end; rejects with the engine's reason when the pull fails. */
  follow: (onProgress?: (p: PullProgress) => void) => Promise<void>;
}

export interface PullOptions {
  /** Abort the pull (closing the engine request cancels it there too). */
  signal?: AbortSignal;
  /** Give up when the engine reports nothing for this long. */
  idleMs?: number;
  /** The registry credential to pull with (ctx.registryAuth's answer); anonymous without it. */
  auth?: RegistryAuth | undefined;
}

/**
 * Starts a pull. Resolves once the engine has accepted it, so refusals that come before any
 * progress (unknown repository, registry unreachable) arrive as a normal engine error.
 */
export async function startPull(engine: Engine, ref: ImageReference, opts: PullOptions = {}): Promise<RunningPull> {
  // Without a tag the engine would pull every tag of the repository.
  const tag = ref.digest ?? ref.tag ?? 'latest';
  const stream: ByteStream = await engine.pullImage(ref.repository, tag, opts.signal, opts.auth);
  return {
    follow: (onProgress) =>
      followEngineStream(stream, (line) => onProgress?.(toProgress(line)), {
        what: 'pull',
        signal: opts.signal,
        idleMs: opts.idleMs,
      }),
  };
}
