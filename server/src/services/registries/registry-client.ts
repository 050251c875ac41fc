import type { RegistryTestFailure } from '@berth/contract';
import { safeFetch, SafeFetchError, type SafeFetchResult } from '../../lib/safe-fetch';
import { DOCKER_HUB } from './credentials';

/** Where and as whom to reach one registry's v2 API. */
export interface RegistryTarget {
  /** Normalized host[:port] (`docker.io` for Docker Hub). */
  host: string;
  username: string | null;
  password: string | null;
  ca: string | null;
}

/** A registry call that failed, by kind (what the test and the browser tell the user). */
export class RegistryFailure extends Error {
  constructor(
    readonly failure: RegistryTestFailure | 'catalog_denied' | 'not_found',
    message: string,
  ) {
    super(message);
  }
}

interface Challenge {
  scheme: 'basic' | 'bearer';
  params: Record<string, string>;
}

/** `Bearer realm="https://…",service="…",scope="…"` → its scheme and parameters. */
export function parseChallenge(header: string | undefined): Challenge | null {
  const m = header?.match(/^\s*(Basic|Bearer)\b(.*)$/i);
  if (!m) return null;
  const params: Record<string, string> = {};
  for (const p of m[2]!.matchAll(/([a-zA-Z_]+)\s*=\s*(?:"([^"]*)"|([^\s,]+))/g))
    params[p[1]!.toLowerCase()] = p[2] ?? p[3]!;
  return { scheme: m[1]!.toLowerCase() as Challenge['scheme'], params };
}

/** The next page's `last` from a `Link: </v2/_catalog?last=x&n=100>; rel="next"` header, or null. */
export function nextFromLink(link: string | string[] | undefined): string | null {
  const text = Array.isArray(link) ? link.join(',') : link;
  const m = text?.match(/<([^>]+)>\s*;\s*rel="?next"?/);
  if (!m) return null;
  return new URL(m[1]!, 'http://x').searchParams.get('last');
}

const TIMEOUT_MS = 15_000;

/**
 * A small client of the registry v2 API over the SSRF-guarded fetcher: https (with the registry's
 * own CA when one is stored), or plain http when the registry speaks no TLS; Basic auth, or the
 * token flow of Docker Hub, GHCR and GitLab (`WWW-Authenticate: Bearer realm=…` answered with a
 * token fetched from the realm with the credential). Upstream bodies are never echoed into errors.
 */
export class RegistryClient {
  private scheme: 'https' | 'http' | null = null;
  private readonly tokens = new Map<string, string>();

  constructor(
    private readonly target: RegistryTarget,
    private readonly opts: { allowLoopback: boolean; timeoutMs?: number } = { allowLoopback: true },
  ) {}

  /** The base of the API: Docker Hub's lives at registry-1.docker.io. */
  private base(scheme: string): string {
    const host = this.target.host === DOCKER_HUB ? 'registry-1.docker.io' : this.target.host;
    return `${scheme}://${host}`;
  }

  private fetch(url: string, headers: Record<string, string> = {}): Promise<SafeFetchResult> {
    return safeFetch(url, {
      allowLoopback: this.opts.allowLoopback,
      timeoutMs: this.opts.timeoutMs ?? TIMEOUT_MS,
      maxBytes: 4 * 1024 * 1024,
      anyStatus: true,
      headers: { Accept: 'application/json', 'User-Agent': 'Berth', ...headers },
      ...(this.target.ca ? { ca: this.target.ca } : {}),
    });
  }

  /** GET `path` on the registry, answering its auth challenge once. */
  async get(path: string): Promise<SafeFetchResult & { url: string }> {
    const first = await this.send(path, this.knownAuth(path));
    if (first.status !== 401) return first;
    const challenge = parseChallenge(first.headers['www-authenticate'] as string | undefined);
    if (!challenge) return first;
    const auth = await this.answer(challenge);
    if (!auth) return first;
    const res = await this.send(path, auth);
    // A client reads one repository (or the catalog): its next pages take the same token without a new challenge.
    if (res.status !== 401) this.tokens.set('*', auth);
    return res;
  }

  /** What was learned for an earlier path of this client (a token per scope, or Basic). */
  private knownAuth(path: string): string | null {
    return this.tokens.get(path) ?? this.tokens.get('*') ?? null;
  }

  private async send(path: string, authorization: string | null): Promise<SafeFetchResult & { url: string }> {
    const headers: Record<string, string> = authorization ? { Authorization: authorization } : {};
    if (this.scheme) return this.fetch(`${this.base(this.scheme)}${path}`, headers);
    try {
      const res = await this.fetch(`${this.base('https')}${path}`, headers);
      this.scheme = 'https';
      return res;
    } catch (err) {
      // A registry without TLS (the engine's "insecure" registries, e.g. on loopback) answers TLS with garbage.
      if (!(
        err instanceof SafeFetchError &&
        err.reason === 'tls' &&
        (err.code === 'EPROTO' || err.code === 'ERR_SSL_WRONG_VERSION_NUMBER')
      ))
        throw err;
      const res = await this.fetch(`${this.base('http')}${path}`, headers);
      this.scheme = 'http';
      return res;
    }
  }

  private basic(): string | null {
    const { username, password } = this.target;
    return username && password ? `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` : null;
  }

  /** The Authorization value that answers a challenge, or null when there is nothing to answer it with. */
  private async answer(challenge: Challenge): Promise<string | null> {
    if (challenge.scheme === 'basic') {
      const basic = this.basic();
      if (basic) this.tokens.set('*', basic);
      return basic;
    }
    const realm = challenge.params.realm;
    if (!realm) return null;
    const url = new URL(realm);
    if (challenge.params.service) url.searchParams.set('service', challenge.params.service);
    if (challenge.params.scope) url.searchParams.set('scope', challenge.params.scope);
    const basic = this.basic();
    const res = await this.fetch(url.toString(), basic ? { Authorization: basic } : {});
    if (res.status === 401 || res.status === 403)
      throw new RegistryFailure(
        'unauthorized',
        'The registry refused the username and password or token (unauthorized).',
      );
    if (res.status < 200 || res.status > 299)
      throw new RegistryFailure('unreachable', `The registry's token service answered HTTP ${res.status}.`);
    let token: unknown;
    try {
      const body = JSON.parse(res.body.toString('utf8')) as { token?: unknown; access_token?: unknown };
      token = body.token ?? body.access_token;
    } catch {
      token = undefined;
    }
    if (typeof token !== 'string' || !token)
      throw new RegistryFailure('not_registry', "The registry's token service gave no token.");
    return `Bearer ${token}`;
  }

  /**
   * One page of a repository's tags (`path` without the host: `library/nginx`, `org/app`); throws a
   * RegistryFailure: `not_found`, `unauthorized`, `not_registry` (an answer that is no tag list) or
   * what the network said.
   */
  async tagPage(
    path: string,
    page: { n: number; last?: string | undefined },
  ): Promise<{ tags: string[]; next: string | null }> {
    const query = new URLSearchParams({ n: String(page.n), ...(page.last ? { last: page.last } : {}) });
    let res: SafeFetchResult;
    try {
      res = await this.get(`/v2/${path}/tags/list?${query}`);
    } catch (err) {
      throw toFailure(err);
    }
    if (res.status === 404) throw new RegistryFailure('not_found', `The registry has no repository ${path}.`);
    if (res.status === 401 || res.status === 403)
      throw new RegistryFailure(
        'unauthorized',
        `The registry refused to list the tags of ${path} with this credential (unauthorized).`,
      );
    if (res.status < 200 || res.status > 299)
      throw new RegistryFailure('not_registry', `The registry answered HTTP ${res.status} to the tag list request.`);
    let body: { tags?: unknown };
    try {
      body = JSON.parse(res.body.toString('utf8')) as { tags?: unknown };
    } catch {
      throw new RegistryFailure('not_registry', "The registry's tag list is not JSON.");
    }
    const tags = Array.isArray(body?.tags) ? body.tags.filter((t): t is string => typeof t === 'string') : [];
    return { tags, next: nextFromLink(res.headers.link) };
  }

  /** The registry's /v2/ with the credential: resolves with the URL reached, throws RegistryFailure saying what failed. */
  async ping(): Promise<string> {
    let res: SafeFetchResult & { url: string };
    try {
      res = await this.get('/v2/');
    } catch (err) {
      throw toFailure(err);
    }
    const isRegistry =
      res.headers['docker-distribution-api-version'] !== undefined ||
      (res.status === 401 && parseChallenge(res.headers['www-authenticate'] as string | undefined) !== null);
    if (!isRegistry || (res.status !== 200 && res.status !== 401))
      throw new RegistryFailure(
        'not_registry',
        `${res.url} answered HTTP ${res.status} without the registry API's header: this is not a Docker registry (v2).`,
      );
    if (res.status === 401)
      throw new RegistryFailure(
        'unauthorized',
        this.basic()
          ? 'The registry refused the username and password or token (unauthorized).'
          : 'The registry needs a username and password or token (unauthorized).',
      );
    return res.url;
  }
}

/** Any error of a registry call as a RegistryFailure (network and TLS trouble by kind). */
export function toFailure(err: unknown): RegistryFailure {
  if (err instanceof RegistryFailure) return err;
  if (err instanceof SafeFetchError) {
    if (err.reason === 'tls') return new RegistryFailure('tls', err.message);
    return new RegistryFailure('unreachable', `The registry could not be reached: ${err.message}`);
  }
  return new RegistryFailure('unreachable', `The registry could not be reached: ${(err as Error).message}`);
}
