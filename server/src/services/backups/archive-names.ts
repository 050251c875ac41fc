/**
 * An archive's tar entry as its section and the path inside it: `volumes/<volume>/<path>` is keyed
 * by the volume, `files/<name>/<path>` (a project's folder, Berth's files) by `files/<name>`.
 */
export const sectionOf = (name: string) => {
  const m = /^(volumes|files)\/([^/]+)(?:\/(.*))?$/.exec(name);
  if (!m) return null;
  return { section: m[1] === 'volumes' ? m[2]! : `files/${m[2]}`, relative: m[3] ?? '' };
};
/** A UTC time as archive names carry it: `20260101T120000Z`. */
export const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
/** A job name made safe for a file name. */
export const slug = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'backup';
export const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
