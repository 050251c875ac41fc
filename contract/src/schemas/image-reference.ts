/**
 * Image references after the grammar of distribution/reference (what `docker pull` accepts):
 *
 *   reference := name [ ":" tag ] [ "@" digest ]
 *   name      := [domain "/"] path-component ["/" path-component]*
 *   domain    := domain-component ["." domain-component]* [":" port]
 *
 * Pure string logic (no Node, no DOM) so the server checks a pull before the engine sees it and
 * the web app can check the same field while it is typed.
 */
export interface ImageReference {
  /** Registry host with port when given, e.g. `127.0.0.1:5000`; null for Docker Hub shorthand. */
  domain: string | null;
  /** Repository path without the domain, e.g. `berth-test/busybox` or `busybox`. */
  path: string;
  /** `domain/path` as written (no tag, no digest): what the engine's `fromImage` takes. */
  repository: string;
  tag: string | null;
  digest: string | null;
}

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = new RegExp(`^(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]{1,5})?$`);
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/;
const NAME_MAX = 255;

/** The first segment is a registry when it has a dot or a port, is `localhost`, or has capitals (docker's rule). */
function looksLikeDomain(segment: string): boolean {
  return segment.includes('.') || segment.includes(':') || segment === 'localhost' || segment !== segment.toLowerCase();
}

/** Parses a reference; returns a reason (a sentence a person can act on) when it is not one. */
export function parseImageReference(input: string): ImageReference | { error: string } {
  const ref = input.trim();
  if (!ref) return { error: 'The image reference is empty.' };
  if (ref.length > 512) return { error: 'The image reference is too long.' };

  let rest = ref;
  let digest: string | null = null;
  const at = rest.indexOf('@');
  if (at !== -1) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest))
      return { error: `'${digest}' is not a valid digest (expected algorithm:hex, e.g. sha256:<64 hex>).` };
  }

  let tag: string | null = null;
  const lastColon = rest.lastIndexOf(':');
  // A colon after the last slash separates the tag; one before it belongs to a registry port.
  if (lastColon > rest.lastIndexOf('/')) {
    tag = rest.slice(lastColon + 1);
    rest = rest.slice(0, lastColon);
    if (!TAG.test(tag)) return { error: `'${tag}' is not a valid tag (letters, digits, '_', '.', '-'; at most 128).` };
  }

  if (!rest) return { error: 'The image reference has no repository name.' };
  if (rest.length > NAME_MAX) return { error: `The repository name is longer than ${NAME_MAX} characters.` };
  const segments = rest.split('/');
  let domain: string | null = null;
  if (segments.length > 1 && looksLikeDomain(segments[0]!)) {
    domain = segments.shift()!;
    if (!DOMAIN.test(domain)) return { error: `'${domain}' is not a valid registry host.` };
    const port = domain.match(/:(\d+)$/)?.[1];
    if (port && Number(port) > 65535) return { error: `Registry port ${port} is out of range.` };
  }
  for (const seg of segments) {
    if (!PATH_COMPONENT.test(seg)) {
      return {
        error: `'${seg}' is not a valid repository name part (lowercase letters, digits and single '.', '_', '__' or '-' between them).`,
      };
    }
  }
  return { domain, path: segments.join('/'), repository: rest, tag, digest };
}

/** The canonical text of a parsed reference (`repo:tag`, `repo@digest` or `repo:tag@digest`). */
export function formatImageReference(ref: ImageReference): string {
  return `${ref.repository}${ref.tag ? `:${ref.tag}` : ''}${ref.digest ? `@${ref.digest}` : ''}`;
}

/** Docker Hub's canonical host; its other spellings (`index.docker.io`, `registry-1.docker.io`) are the same registry. */
export const DOCKER_HUB = 'docker.io';
const HUB_ALIASES = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io', 'registry.hub.docker.com']);
const REGISTRY_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:]+\])(?::\d{1,5})?$/;
/** An image id (`sha256:<64 hex>` or the bare hex), which names no registry. */
const IMAGE_ID = /^(sha256:)?[0-9a-f]{64}$/;

/**
 * The host a registry is known by: `https://GHCR.io/` → `ghcr.io`, `index.docker.io` → `docker.io`,
 * `127.0.0.1:5000` stays. Null when the text is not a host[:port] (a path after it is dropped).
 */
export function normalizeRegistryHost(text: string): string | null {
  const bare = text
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/\/.*$/, '')
    .toLowerCase();
  if (!REGISTRY_HOST.test(bare)) return null;
  return HUB_ALIASES.has(bare) ? DOCKER_HUB : bare;
}

/** The registry host an image reference pulls from (`docker.io` for Docker Hub shorthand); null for an image id or no reference. */
export function imageRegistryHost(image: string): string | null {
  if (IMAGE_ID.test(image.trim())) return null;
  const ref = parseImageReference(image);
  if ('error' in ref) return null;
  return ref.domain ? normalizeRegistryHost(ref.domain) : DOCKER_HUB;
}
