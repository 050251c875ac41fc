import { DOCKER_HUB, imageRegistryHost, normalizeRegistryHost } from '@berth/contract';
import type { RegistriesRepo, RegistryRow } from '../../db/registries-repo';
import type { RegistryAuth } from '../../docker/engine';
import type { RegistryTarget } from './registry-client';

/**
 * The registry credential of an image (docker/engine.ts): what the engine takes as `X-Registry-Auth`
 * (pull, push, distribution inspect, service create/update) and what a docker config.json `auths` entry holds.
 */
export type { RegistryAuth } from '../../docker/engine';
export { DOCKER_HUB, imageRegistryHost, normalizeRegistryHost };

/** The credential for an image reference (`ghcr.io/org/app:1.2`, `nginx`), or undefined: pull anonymously. */
export type RegistryAuthLookup = (image: string) => RegistryAuth | undefined;

/** The key Docker Hub has in a docker config.json `auths` and the serveraddress the docker CLI sends for it. */
export const DOCKER_HUB_AUTH_KEY = 'https://index.docker.io/v1/';

/** The serveraddress (and config.json key) a host's credential is sent under. */
export const authServerAddress = (host: string) => (host === DOCKER_HUB ? DOCKER_HUB_AUTH_KEY : host);

/** Whether environment `environment` may use the stored registry `row`. */
export function usableIn(row: Pick<RegistryRow, 'environments'>, environment: string): boolean {
  if (row.environments === null) return true;
  try {
    const list = JSON.parse(row.environments) as unknown;
    return Array.isArray(list) && list.includes(environment);
  } catch {
    return false;
  }
}

/**
 * Chooses the stored credential for an image by its registry host, among the registries the
 * environment may use (the oldest one when several name the same host). Opens the sealed secret
 * only here, for the call that sends it.
 */
export class RegistryCredentials {
  constructor(
    private readonly repo: RegistriesRepo,
    private readonly openSecret: (sealed: string) => string,
  ) {}

  /** The stored registry environment `environment` uses for `host`: the oldest with a credential, else the oldest (its CA). */
  private pick(host: string, environment: string): RegistryRow | null {
    const rows = this.repo
      .list()
      .filter((r) => r.server_address === host && usableIn(r, environment))
      .sort((a, b) => a.id - b.id);
    return rows.find((r) => r.username && r.password_sealed) ?? rows[0] ?? null;
  }

  /** The credential for `host` (normalized) in `environment`, or undefined. */
  forHost(host: string, environment: string): RegistryAuth | undefined {
    const row = this.pick(host, environment);
    if (!row?.username || !row.password_sealed) return undefined;
    return {
      username: row.username,
      password: this.openSecret(row.password_sealed),
      serveraddress: authServerAddress(host),
    };
  }

  /** Where and as whom environment `environment` reaches `host`'s v2 API (anonymous, system CAs without a stored registry). */
  targetFor(host: string, environment: string): RegistryTarget {
    const row = this.pick(host, environment);
    const withSecret = row?.username && row.password_sealed ? row : null;
    return {
      host,
      username: withSecret?.username ?? null,
      password: withSecret ? this.openSecret(withSecret.password_sealed!) : null,
      ca: row?.ca_cert ?? null,
    };
  }

  /** The credential for the registry `image` is pulled from, in `environment`, or undefined (pull anonymously). */
  forImage(image: string, environment: string): RegistryAuth | undefined {
    const host = imageRegistryHost(image);
    return host ? this.forHost(host, environment) : undefined;
  }

  /** A lookup bound to one environment (what its services receive as `ctx.registryAuth`). */
  lookup(environment: string): RegistryAuthLookup {
    return (image) => this.forImage(image, environment);
  }
}

/** A docker config.json holding only the `auths` these images need (for a compose or docker CLI run). */
export function dockerConfigFor(
  images: Iterable<string>,
  lookup: RegistryAuthLookup,
): { auths: Record<string, { auth: string }> } {
  const auths: Record<string, { auth: string }> = {};
  for (const image of images) {
    const auth = lookup(image);
    if (auth) auths[auth.serveraddress] = { auth: Buffer.from(`${auth.username}:${auth.password}`).toString('base64') };
  }
  return { auths };
}
