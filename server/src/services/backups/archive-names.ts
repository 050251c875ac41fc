/** An archive's tar entry `volumes/<volume>/<path>` as its section (the volume) and the path inside it. */
export const sectionOf = (name: string) => {
  const m = /^volumes\/([^/]+)(?:\/(.*))?$/.exec(name);
  return m ? { section: m[1]!, relative: m[2] ?? '' } : null;
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
