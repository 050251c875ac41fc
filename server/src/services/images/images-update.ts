import { parseImageReference } from '@berth/contract';
import type { ImageTagLookup } from '../../context';
import type { Engine, RegistryAuth } from '../../docker/engine';
import { newerTags, parseVersionTag } from './version-tags';
import { startPull, type PullOptions } from './engine-images';
import { IMAGE_ID } from '../../docker/names';
import { DockerUnavailableError, EngineTimeoutError, NotFoundError, ValidationError } from '../../errors';

/** Whether a newer image exists in the registry for a reference (shared by app updates and self-update). */
export interface ImageUpdateCheck {
  /** The reference that was checked, e.g. `nginx:latest`. */
  image: string;
  isUpdatable: boolean;
  /** Why the registry could not be compared; null when it was. */
  reason: string | null;
  /** The registry's current manifest digest for the reference. */
  remoteDigest: string | null;
  /** Registry digests of the local image (for the reference's repository). */
  localDigests: string[];
  /** Tags newer than the reference's version tag (any range, same prefix and suffix), newest first. */
  newerTags: string[];
  /** Why newer tags were not looked for or could not be; null when they were. */
  tagsReason: string | null;
  checkedAt: string;
}

/** An update check reads a repository's tags again when its kept list is older than this. */
export const TAGS_MAX_AGE_MS = 5 * 60_000;

type TagsCheck = Pick<ImageUpdateCheck, 'newerTags' | 'tagsReason'>;

const newestMemo = new WeakMap<readonly string[], Map<string, string | null>>();

/**
 * The newest tag kept for `ref`'s repository that is a newer version of its tag (what the app
 * list shows as "1.5.0 available"); null when there is none or no list is kept. Never asks the registry.
 */
export function keptNewerVersion(ref: string, lookup: ImageTagLookup | undefined): string | null {
  const tags = lookup?.cached(ref);
  if (!tags) return null;
  let memo = newestMemo.get(tags);
  if (!memo) newestMemo.set(tags, (memo = new Map()));
  if (memo.has(ref)) return memo.get(ref)!;
  const parsed = IMAGE_ID.test(ref) ? null : parseImageReference(ref);
  const tag = parsed && !('error' in parsed) && !parsed.digest ? parsed.tag : null;
  const newest = tag ? (newerTags(tag, tags, 'major')[0] ?? null) : null;
  memo.set(ref, newest);
  return newest;
}

/**
 * The tags newer than `ref`'s version tag from its registry's tag list (read through `lookup`,
 * kept up to `maxAgeMs`). Never throws: registry trouble becomes `tagsReason`.
 */
export async function checkNewerTags(
  ref: string,
  lookup: ImageTagLookup | undefined,
  maxAgeMs = TAGS_MAX_AGE_MS,
): Promise<TagsCheck> {
  const none = (tagsReason: string): TagsCheck => ({ newerTags: [], tagsReason });
  const parsed = IMAGE_ID.test(ref) ? null : parseImageReference(ref);
  if (!parsed || 'error' in parsed || parsed.digest) return none('The image is not named by a tag.');
  const tag = parsed.tag ?? 'latest';
  if (!parseVersionTag(tag)) return none(`The tag ${tag} is not a version, so there are no newer versions by tag.`);
  if (!lookup) return none("This environment does not read registries' tag lists.");
  try {
    return { newerTags: newerTags(tag, await lookup.list(ref, maxAgeMs), 'major'), tagsReason: null };
  } catch (err) {
    return none(`The registry's tags could not be listed: ${(err as Error).message}`);
  }
}

/** Docker Hub names have two spellings (`nginx`, `docker.io/library/nginx`); compare them as one. */
function familiar(repository: string): string {
  return repository.replace(/^(docker\.io|index\.docker\.io|registry-1\.docker\.io)\//, '').replace(/^library\//, '');
}

/**
 * `repo@sha256:…` of the image `imageId` for the repository `ref` names (what a container ran,
 * pinnable without its tag); null when the image has no registry digest for it (built here,
 * never pushed) or is gone.
 */
export async function pinnedDigest(engine: Engine, ref: string, imageId: string): Promise<string | null> {
  const parsed = IMAGE_ID.test(ref) ? null : parseImageReference(ref);
  if (!parsed || 'error' in parsed) return null;
  if (parsed.digest) return `${parsed.repository}@${parsed.digest}`;
  const local = await engine.inspectImage(imageId).catch((err: unknown) => {
    if (err instanceof NotFoundError) return null;
    throw err;
  });
  const repo = familiar(parsed.repository);
  const digest = (local?.RepoDigests ?? []).find((d) => familiar(d.split('@')[0] ?? '') === repo)?.split('@')[1];
  return digest ? `${parsed.repository}@${digest}` : null;
}

interface CheckOptions {
  imageId?: string;
  timeoutMs?: number;
  auth?: RegistryAuth | undefined;
  /** Where the repository's tags are read, for newer versions by tag; without it none are looked for. */
  tags?: ImageTagLookup | undefined;
  tagsMaxAgeMs?: number;
}

/**
 * Compares the registry's manifest digest for `ref` with the digests of the local image
 * (`imageId` when given — the image a container actually runs — else the one `ref` names).
 * The engine asks the registry (GET /distribution/{ref}/json) with `opts.auth` when given.
 * Beside it, with `opts.tags`, looks for tags that are newer versions of `ref`'s tag.
 * Never throws for registry trouble: `isUpdatable` is false and `reason` says why. Throws only
 * when the engine itself is unreachable.
 */
export async function checkImageUpdate(
  engine: Engine,
  ref: string,
  opts: CheckOptions = {},
): Promise<ImageUpdateCheck> {
  const [digest, tags] = await Promise.all([
    checkDigest(engine, ref, opts),
    opts.tags
      ? checkNewerTags(ref, opts.tags, opts.tagsMaxAgeMs)
      : Promise.resolve<TagsCheck>({ newerTags: [], tagsReason: null }),
  ]);
  return { ...digest, ...tags };
}

async function checkDigest(
  engine: Engine,
  ref: string,
  opts: CheckOptions,
): Promise<Omit<ImageUpdateCheck, keyof TagsCheck>> {
  const result = (
    isUpdatable: boolean,
    reason: string | null,
    remoteDigest: string | null = null,
    localDigests: string[] = [],
  ) => ({
    image: ref,
    isUpdatable,
    reason,
    remoteDigest,
    localDigests,
    checkedAt: new Date().toISOString(),
  });
  const parsed = IMAGE_ID.test(ref) ? null : parseImageReference(ref);
  if (!parsed || 'error' in parsed)
    return result(false, 'The app was created from an image ID, not a name; there is nothing to ask a registry about.');
  if (parsed.digest) return result(false, 'The image is pinned to a digest, which never changes.');

  let repoDigests: string[];
  try {
    const local = await engine.inspectImage(opts.imageId ?? ref);
    repoDigests = local.RepoDigests ?? [];
  } catch (err) {
    if (err instanceof NotFoundError) return result(false, 'The image is not on this host.');
    throw err;
  }
  const repo = familiar(parsed.repository);
  const localDigests = repoDigests
    .filter((d) => familiar(d.split('@')[0] ?? '') === repo)
    .map((d) => d.split('@')[1] ?? '');
  if (localDigests.length === 0) {
    return result(
      false,
      'The image has no digest from its registry (it was built or imported on this host, or never pulled).',
    );
  }

  const timeoutMs = opts.timeoutMs ?? 15_000;
  let remoteDigest: string | undefined;
  try {
    const info = await engine.distributionInspect(ref, timeoutMs, opts.auth);
    remoteDigest = info?.Descriptor?.digest;
  } catch (err) {
    if (err instanceof DockerUnavailableError) throw err;
    if (err instanceof EngineTimeoutError)
      return result(false, `The registry did not answer within ${Math.round(timeoutMs / 1000)} s.`, null, localDigests);
    return result(false, `The registry could not be asked: ${(err as Error).message}`, null, localDigests);
  }
  if (!remoteDigest) return result(false, 'The registry gave no digest for this image.', null, localDigests);
  return result(!localDigests.includes(remoteDigest), null, remoteDigest, localDigests);
}

/** Pulls `ref` through the engine (with `opts.auth`, else anonymous) and waits for it to finish. */
export async function pullImage(engine: Engine, ref: string, opts: PullOptions = {}): Promise<void> {
  const parsed = parseImageReference(ref);
  if ('error' in parsed) throw new ValidationError(`Cannot pull '${ref}': ${parsed.error}`);
  const pull = await startPull(engine, parsed, opts);
  await pull.follow();
}
