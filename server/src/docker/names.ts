/** The compose labels that tie a container, volume or network to a project and service (v1 and v2 alike). */
export const PROJECT_LABEL = 'com.docker.compose.project';
export const SERVICE_LABEL = 'com.docker.compose.service';
/** The hash of a service's resolved config that compose stamps on each container it makes (v1 and v2). */
export const CONFIG_HASH_LABEL = 'com.docker.compose.config-hash';

/** A full image id, with or without its `sha256:` prefix. */
export const IMAGE_ID = /^(sha256:)?[0-9a-f]{64}$/;
/** A full engine id (containers, networks, anonymous volumes). */
export const FULL_ID = /^[0-9a-f]{64}$/;

/** A container's name without the engine's leading slash. */
export const bareName = (name: string): string => name.replace(/^\//, '');

/** How many characters of a container id the API shows as `short_id`. */
export const SHORT_ID_LENGTH = 10;

/**
 * Whether the engine found the object behind `ref` only as an id prefix (`0` for a network whose id
 * starts with 0). The engine accepts any unique prefix; Berth lets only names and full ids — and,
 * for containers, the short id the API shows (10 characters) or the CLI shows (12) — reach a delete
 * or an action.
 */
export function foundByIdPrefix(
  ref: string,
  obj: { id: string; names: string[] },
  opts: { shortIds?: boolean } = {},
): boolean {
  const id = obj.id.replace(/^sha256:/, '');
  const bare = ref.replace(/^sha256:/, '');
  if (bare === id || !id.startsWith(bare)) return false;
  if (opts.shortIds && (bare.length === SHORT_ID_LENGTH || bare.length === 12)) return false;
  const wanted = new Set([bareName(ref), `${bareName(ref)}:latest`]);
  return !obj.names.some((n) => wanted.has(bareName(n)));
}
/** Where compose ran (v1 and v2 stamp it on every container) and the files it read (comma-separated in v2). */
export const WORKING_DIR_LABEL = 'com.docker.compose.project.working_dir';
export const CONFIG_FILES_LABEL = 'com.docker.compose.project.config_files';
