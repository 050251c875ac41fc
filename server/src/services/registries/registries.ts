import type {
  NewRegistryBody,
  Registry,
  RegistryPatchBody,
  RegistryRepositories,
  RegistryTags,
  RegistryTestResult,
} from '@berth/contract';
import type { RegistriesRepo, RegistryRow } from '../../db/registries-repo';
import { ConflictError, NotFoundError, UpstreamError, ValidationError } from '../../errors';
import { normalizeRegistryHost } from './credentials';
import type { SafeFetchResult } from '../../lib/safe-fetch';
import { nextFromLink, RegistryClient, toFailure, type RegistryTarget } from './registry-client';

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

type Answer = Pick<SafeFetchResult, 'status' | 'headers' | 'body'>;

const CATALOG_DENIED =
  'This registry does not allow listing its repositories (Docker Hub and most hosted registries do not). Type a repository name to list its tags.';

function toRegistry(row: RegistryRow): Registry {
  return {
    id: row.id,
    name: row.name,
    server_address: row.server_address,
    username: row.username,
    has_password: row.password_sealed !== null,
    ca_cert: row.ca_cert,
    environments: row.environments === null ? null : (JSON.parse(row.environments) as string[]),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Stored registry credentials (admin manages, operators list and use): CRUD, the /v2/ test and the browser. */
export class RegistriesService {
  constructor(
    private readonly repo: RegistriesRepo,
    private readonly box: SecretBox,
    private readonly opts: {
      /** Environment ids that exist now (an unknown one in `environments` is a 400). */
      environmentIds: () => string[];
      /** Registries on 127.0.0.0/8 may be reached (a registry beside Berth is common). */
      allowLoopback: boolean;
    },
  ) {}

  list(): Registry[] {
    return this.repo.list().map(toRegistry);
  }

  get(id: number): Registry {
    return toRegistry(this.row(id));
  }

  private row(id: number): RegistryRow {
    const row = this.repo.get(id);
    if (!row) throw new NotFoundError('registry', String(id));
    return row;
  }

  create(body: NewRegistryBody): Registry {
    const now = new Date().toISOString();
    const fields = this.checked(body, null);
    const id = this.repo.insert({ ...fields, created_at: now, updated_at: now });
    return this.get(id);
  }

  update(id: number, body: RegistryPatchBody): Registry {
    const row = this.row(id);
    const merged = {
      name: body.name ?? row.name,
      server_address: body.server_address ?? row.server_address,
      username: body.username !== undefined ? body.username : row.username,
      ca_cert: body.ca_cert !== undefined ? body.ca_cert : row.ca_cert,
      environments:
        body.environments !== undefined
          ? body.environments
          : row.environments === null
            ? null
            : (JSON.parse(row.environments) as string[]),
    };
    const fields = this.checked({ ...merged, password: body.password }, id);
    this.repo.update({
      ...row,
      ...fields,
      // Absent: keep the stored secret; empty: remove it.
      password_sealed: body.password === undefined ? row.password_sealed : fields.password_sealed,
      updated_at: new Date().toISOString(),
    });
    return this.get(id);
  }

  remove(id: number): Registry {
    const before = this.get(id);
    this.repo.remove(id);
    return before;
  }

  /** Validates and normalizes the fields; the password is sealed here and nowhere else. */
  private checked(body: NewRegistryBody, id: number | null) {
    const host = normalizeRegistryHost(body.server_address);
    if (!host) {
      const message = 'The server address is a host with an optional port, e.g. ghcr.io or registry.example.com:5000.';
      throw new ValidationError(`server_address: ${message}`, [{ field: 'server_address', message }]);
    }
    if (this.repo.nameTaken(body.name, id)) throw new ConflictError(`A registry named "${body.name}" already exists.`);
    const known = new Set(this.opts.environmentIds());
    const unknown = (body.environments ?? []).filter((e) => !known.has(e));
    if (unknown.length) {
      const message = `Unknown environment${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`;
      throw new ValidationError(`environments: ${message}`, [{ field: 'environments', message }]);
    }
    return {
      name: body.name,
      server_address: host,
      username: body.username || null,
      password_sealed: body.password ? this.box.seal(body.password) : null,
      ca_cert: body.ca_cert || null,
      environments: body.environments ? JSON.stringify([...new Set(body.environments)]) : null,
    };
  }

  private target(
    row: Pick<RegistryRow, 'server_address' | 'username' | 'password_sealed' | 'ca_cert'>,
  ): RegistryTarget {
    return {
      host: row.server_address,
      username: row.username,
      password: row.password_sealed ? this.box.open(row.password_sealed) : null,
      ca: row.ca_cert,
    };
  }

  private client(target: RegistryTarget): RegistryClient {
    return new RegistryClient(target, { allowLoopback: this.opts.allowLoopback });
  }

  /** Reaches the stored registry's /v2/ with its credential. */
  test(id: number): Promise<RegistryTestResult> {
    return this.ping(this.target(this.row(id)));
  }

  /** Reaches a registry with typed fields before they are saved; fields not typed come from registry `id`. */
  testNew(body: Partial<NewRegistryBody> & { id?: number | undefined }): Promise<RegistryTestResult> {
    const stored = body.id !== undefined ? this.row(body.id) : null;
    const address = body.server_address ?? stored?.server_address ?? '';
    const host = normalizeRegistryHost(address);
    if (!host) {
      const message = 'The server address is a host with an optional port, e.g. ghcr.io or registry.example.com:5000.';
      throw new ValidationError(`server_address: ${message}`, [{ field: 'server_address', message }]);
    }
    return this.ping({
      host,
      username: body.username !== undefined ? body.username || null : (stored?.username ?? null),
      password: body.password ? body.password : stored?.password_sealed ? this.box.open(stored.password_sealed) : null,
      ca: body.ca_cert !== undefined ? body.ca_cert || null : (stored?.ca_cert ?? null),
    });
  }

  private async ping(target: RegistryTarget): Promise<RegistryTestResult> {
    try {
      const url = await this.client(target).ping();
      return { ok: true, failure: null, detail: `The registry answered ${url} with these credentials.`, url };
    } catch (err) {
      const f = toFailure(err);
      const failure = f.failure === 'catalog_denied' || f.failure === 'not_found' ? 'not_registry' : f.failure;
      return { ok: false, failure, detail: f.message, url: null };
    }
  }

  /** One page of the v2 catalog; a registry that refuses the catalog answers `catalog_allowed: false`. */
  async repositories(id: number, page: { n: number; last?: string | undefined }): Promise<RegistryRepositories> {
    const query = new URLSearchParams({ n: String(page.n), ...(page.last ? { last: page.last } : {}) });
    const res = await this.call(this.row(id), `/v2/_catalog?${query}`);
    if (res.status === 401 || res.status === 403 || res.status === 404 || res.status === 405)
      return { repositories: [], next: null, catalog_allowed: false, detail: CATALOG_DENIED };
    const body = this.json(res, 'catalog') as { repositories?: unknown };
    const repositories = Array.isArray(body.repositories) ? body.repositories.filter((r) => typeof r === 'string') : [];
    return { repositories, next: nextFromLink(res.headers.link), catalog_allowed: true, detail: null };
  }

  /** One page of a repository's tags. */
  async tags(id: number, repository: string, page: { n: number; last?: string | undefined }): Promise<RegistryTags> {
    const row = this.row(id);
    try {
      const { tags, next } = await this.client(this.target(row)).tagPage(repository, page);
      return { repository, image: `${row.server_address}/${repository}`, tags, next };
    } catch (err) {
      const f = toFailure(err);
      if (f.failure === 'not_found') throw new NotFoundError('repository', repository);
      if (f.failure === 'unauthorized')
        throw new UpstreamError(
          `The registry refused to list the tags of ${repository} with this credential (unauthorized).`,
        );
      throw new UpstreamError(f.failure === 'not_registry' ? f.message : `${row.name}: ${f.message}`);
    }
  }

  /** GET on the registry; a refused credential is a 401 answer (the caller says what it means there). */
  private async call(row: RegistryRow, path: string): Promise<Answer> {
    try {
      return await this.client(this.target(row)).get(path);
    } catch (err) {
      const f = toFailure(err);
      if (f.failure === 'unauthorized') return { status: 401, headers: {}, body: Buffer.alloc(0) };
      throw new UpstreamError(`${row.name}: ${f.message}`);
    }
  }

  private json(res: Answer, what: string): unknown {
    if (res.status < 200 || res.status > 299)
      throw new UpstreamError(`The registry answered HTTP ${res.status} to the ${what} request.`);
    try {
      return JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new UpstreamError(`The registry's ${what} is not JSON.`);
    }
  }
}
