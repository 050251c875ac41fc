import semver from 'semver';
import { parseImageReference, type VersionPolicy } from '@berth/contract';

export type { VersionPolicy };

interface VersionTag {
  tag: string;
  version: semver.SemVer;
  /** `v` before the version, and the part after it (`-alpine`): a newer tag must have the same. */
  prefix: string;
  suffix: string;
}

/** `1.4.2`, `v1.4`, `1.4.2-alpine` → its version (a missing minor or patch is 0) and what surrounds it; null otherwise. */
export function parseVersionTag(tag: string): VersionTag | null {
  const m = /^(v?)(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[A-Za-z0-9.-]+)?$/.exec(tag);
  if (!m) return null;
  const parts = [m[2], m[3], m[4]].filter((p) => p !== undefined).length;
  const version = semver.coerce(`${m[2]}.${m[3] ?? 0}.${m[4] ?? 0}`);
  if (!version) return null;
  // The suffix keeps the precision too: `1.4` is followed by `1.5`, not by `1.5.3`.
  return { tag, version, prefix: m[1] ?? '', suffix: `${parts}${m[5] ?? ''}` };
}

/**
 * The tags newer than `current` that `policy` allows (same prefix, suffix and precision), newest
 * first: `patch` keeps major and minor, `minor` keeps major, `major` any. Empty for `digest` or a
 * tag that is no version.
 */
export function newerTags(current: string, tags: readonly string[], policy: VersionPolicy): string[] {
  const now = parseVersionTag(current);
  if (!now || policy === 'digest') return [];
  return tags
    .map(parseVersionTag)
    .filter((t): t is VersionTag => t !== null && t.prefix === now.prefix && t.suffix === now.suffix)
    .filter((t) => semver.gt(t.version, now.version))
    .filter((t) => {
      if (policy === 'major') return true;
      if (t.version.major !== now.version.major) return false;
      return policy === 'minor' || t.version.minor === now.version.minor;
    })
    .sort((a, b) => semver.rcompare(a.version, b.version))
    .map((t) => t.tag);
}

/**
 * Where an image reference may move under `policy`, newest first: the same repository with a tag
 * of `tags` newer within the range (none for `digest`, a reference by digest or a tag that is no version).
 */
export function versionMoves(
  ref: string,
  tags: readonly string[],
  policy: VersionPolicy,
): { tag: string; ref: string }[] {
  const parsed = parseImageReference(ref);
  if ('error' in parsed || parsed.digest || !parsed.tag) return [];
  return newerTags(parsed.tag, tags, policy).map((tag) => ({ tag, ref: `${parsed.repository}:${tag}` }));
}
