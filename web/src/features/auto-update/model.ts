import type { VersionPolicy } from '@berth/contract';

/** How far an update may move an image, in words (the choices of the version policy selects). */
export const VERSION_POLICY_LABELS: Record<VersionPolicy, string> = {
  digest: 'Same tag (new image under it)',
  patch: 'Newer patch version (1.4.2 → 1.4.3)',
  minor: 'Newer minor version (1.4.2 → 1.5.0)',
  major: 'Any newer version (1.4.2 → 2.0.0)',
};

export const VERSION_POLICY_OPTIONS = (Object.keys(VERSION_POLICY_LABELS) as VersionPolicy[]).map((value) => ({
  value,
  label: VERSION_POLICY_LABELS[value],
}));

/** The short form the effective policy line shows. */
export const versionPolicyShort = (p: VersionPolicy) => (p === 'digest' ? 'same tag' : `newer ${p} versions`);
