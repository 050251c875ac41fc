import { DOCKER_HUB, normalizeRegistryHost, parseImageReference } from '@berth/contract';
import type { ImageTagLookup } from '../../context';
import type { RegistryCredentials } from './credentials';
import { RegistryClient, toFailure } from './registry-client';

/** A kept list is shown (the app list's "1.5.0 available") for this long without being read again. */
const KEEP_MS = 24 * 60 * 60_000;
const MAX_KEPT = 2000;
/** Registries cap a page (distribution refuses more than 1000, some hosted ones answer 100 at most). */
const PAGE = 100;
/** A repository with more tags than this many pages is read no further (its newest versions are usually in the first). */
const MAX_PAGES = 50;

/** `host` and the repository path the v2 API knows an image by (`nginx` → docker.io, `library/nginx`); null for no reference. */
export function tagSource(image: string): { host: string; path: string } | null {
  const ref = parseImageReference(image);
  if ('error' in ref) return null;
  const host = ref.domain ? normalizeRegistryHost(ref.domain) : DOCKER_HUB;
  if (!host) return null;
  return { host, path: host === DOCKER_HUB && !ref.path.includes('/') ? `library/${ref.path}` : ref.path };
}

/**
 * Reads every tag of an image's repository (the v2 tags list, page after page, through the
 * SSRF-guarded registry client with the stored registry the environment uses for that host) and
 * keeps each list: an update check reads it again after a few minutes, the app list only shows
 * what is kept. Two readers of the same list share one request.
 */
export class RegistryTagLister {
  private readonly kept = new Map<string, { at: number; tags: string[] }>();
  private readonly reading = new Map<string, Promise<string[]>>();

  constructor(
    private readonly credentials: RegistryCredentials,
    private readonly opts: { allowLoopback: boolean },
  ) {}

  /** The lookup environment `environment`'s services receive as `ctx.registryTags`. */
  forEnvironment(environment: string): ImageTagLookup {
    return {
      list: (image, maxAgeMs) => this.list(image, environment, maxAgeMs),
      cached: (image) => this.cached(image, environment),
    };
  }

  private key(image: string, environment: string): { key: string; host: string; path: string } | null {
    const source = tagSource(image);
    return source ? { ...source, key: `${environment}\u0000${source.host}/${source.path}` } : null;
  }

  cached(image: string, environment: string): string[] | null {
    const k = this.key(image, environment);
    const hit = k ? this.kept.get(k.key) : undefined;
    return hit && Date.now() - hit.at < KEEP_MS ? hit.tags : null;
  }

  async list(image: string, environment: string, maxAgeMs: number): Promise<string[]> {
    const k = this.key(image, environment);
    if (!k) throw new Error(`'${image}' names no repository in a registry.`);
    const hit = this.kept.get(k.key);
    if (hit && Date.now() - hit.at < maxAgeMs) return hit.tags;
    const pending = this.reading.get(k.key);
    if (pending) return pending;
    const read = this.read(k.host, k.path, environment).finally(() => this.reading.delete(k.key));
    this.reading.set(k.key, read);
    const tags = await read;
    this.keep(k.key, tags);
    return tags;
  }

  private async read(host: string, path: string, environment: string): Promise<string[]> {
    const client = new RegistryClient(this.credentials.targetFor(host, environment), {
      allowLoopback: this.opts.allowLoopback,
    });
    const tags: string[] = [];
    let last: string | undefined;
    try {
      for (let i = 0; i < MAX_PAGES; i++) {
        const page = await client.tagPage(path, { n: PAGE, last });
        tags.push(...page.tags);
        // A registry that ignores `last` would answer the same page forever.
        if (!page.next || page.next === last) break;
        last = page.next;
      }
    } catch (err) {
      throw toFailure(err);
    }
    return [...new Set(tags)];
  }

  private keep(key: string, tags: string[]): void {
    this.kept.delete(key);
    this.kept.set(key, { at: Date.now(), tags });
    // Oldest first (re-inserted on each read): drop from the front.
    for (const k of this.kept.keys()) {
      if (this.kept.size <= MAX_KEPT) break;
      this.kept.delete(k);
    }
  }
}
