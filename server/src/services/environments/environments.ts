import crypto from 'node:crypto';
import {
  LOCAL_ENVIRONMENT,
  type Environment,
  type EnvironmentPatchBody,
  type EnvironmentStatus,
  type NewEnvironmentBody,
} from '@berth/contract';
import type { AppContext, Uses } from '../../context';
import type { EnvironmentRow, EnvironmentsRepo } from '../../db/environments-repo';
import { DEFAULT_DOCKER_HOST, type Config } from '../../config';
import { createEngine } from '../../docker/dockerode-engine';
import {
  AppError,
  ConflictError,
  DockerUnavailableError,
  EngineTimeoutError,
  EnvironmentUnreachableError,
  NotFoundError,
  ValidationError,
} from '../../errors';
import type { EnvironmentScopes } from './environment-scopes';
import type { AgentHub } from '../agents/agent-hub';
import { brokenStatus, statusOf } from './status';
import { connectionOf, parseEnvironmentUrl, storedParts, type ConnectionParts, type SecretBox } from './stored';

/** What the service needs of an environment's live scope. */
export interface ScopeView {
  ctx: Pick<AppContext, 'docker' | 'engine'>;
  close(): Promise<void> | void;
}

/** A slug from a name: `Build Host 2` → `build-host-2`. */
const slug = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 56) || 'env';

/**
 * The environments: `local` (DOCKER_HOST, never stored, never deleted) and those the admin added.
 * A new or changed connection is tried before anything is stored; secrets are sealed at rest
 * and never part of a read.
 */
export class EnvironmentsService {
  constructor(
    /** Berth's whole config: a stored environment's engine is made from it with the environment's connection. */
    private readonly base: Uses<'log', keyof Config>,
    private readonly repo: EnvironmentsRepo,
    private readonly box: SecretBox,
    private readonly scopes: EnvironmentScopes<ScopeView>,
    private readonly agents: AgentHub,
  ) {}

  async list(): Promise<Environment[]> {
    const ids = [LOCAL_ENVIRONMENT, ...this.repo.list().map((r) => r.id)];
    return Promise.all(ids.map((id) => this.get(id, false)));
  }

  async get(id: string, fresh = true): Promise<Environment> {
    const row = this.row(id);
    return row ? this.view(row, await this.status(id, fresh)) : this.localView(await this.status(id, fresh));
  }

  /** The scope's status; an environment whose scope cannot be built (keys that no longer open) is unreachable, saying why. */
  private async status(id: string, fresh: boolean): Promise<EnvironmentStatus> {
    // An agent environment is as reachable as its agent is connected: the reason is the agent's.
    const agent = id === LOCAL_ENVIRONMENT || this.repo.get(id)?.kind !== 'agent' ? null : this.agents.state(id);
    if (agent && !agent.connected) return brokenStatus(agent.reason ?? 'The agent is not connected.');
    let scope: ScopeView;
    try {
      scope = this.scopes.get(id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return brokenStatus(err.message);
    }
    return statusOf(scope.ctx.engine, scope.ctx.docker, this.base.log, fresh);
  }

  async test(id: string): Promise<EnvironmentStatus> {
    return (await this.get(id, true)).status;
  }

  async create(body: NewEnvironmentBody): Promise<Environment> {
    const parts = this.partsFrom(body.url, body.tls ?? null, body.ssh ?? null, null);
    const id = body.id ?? this.freeId(slug(body.name));
    if (id === LOCAL_ENVIRONMENT || this.repo.get(id))
      throw new ConflictError(`An environment with the id ${id} exists already.`);
    this.checkName(body.name, null);
    const hostKey = await this.probe(body.url, parts, body.save_unreachable ?? false);
    const now = new Date().toISOString();
    const row = this.toRow(id, body.name, body.url, parts, hostKey, now, now);
    this.repo.insert(row);
    this.base.log.info({ environment: id, kind: row.kind }, 'environment added');
    return this.get(id, true);
  }

  async update(id: string, body: EnvironmentPatchBody): Promise<Environment> {
    const row = this.stored(id, 'changed');
    const name = body.name ?? row.name;
    this.checkName(name, id);
    if (row.kind === 'agent') {
      if (body.url !== undefined || body.tls !== undefined || body.ssh !== undefined)
        throw new ValidationError('An agent environment is reached through its agent: only its name changes.', [
          { field: body.url !== undefined ? 'url' : body.tls !== undefined ? 'tls' : 'ssh', message: 'Not used.' },
        ]);
      this.repo.update({ ...row, name, updated_at: new Date().toISOString() });
      return this.get(id, false);
    }
    const old = this.openParts(row) ?? { url: parseEnvironmentUrl(row.url), tls: null, ssh: null };
    const url = body.url ?? row.url;
    const tls = body.tls
      ? { ca: body.tls.ca ?? old.tls?.ca, cert: body.tls.cert ?? old.tls?.cert, key: body.tls.key ?? old.tls?.key }
      : old.tls;
    const ssh = body.ssh
      ? {
          user: body.ssh.user ?? old.ssh?.username,
          private_key: body.ssh.private_key ?? old.ssh?.privateKey,
          passphrase: body.ssh.passphrase ?? old.ssh?.passphrase,
          host_key: body.ssh.host_key ?? (body.url === undefined ? (old.ssh?.hostKey ?? undefined) : undefined),
        }
      : old.ssh
        ? {
            user: old.ssh.username,
            private_key: old.ssh.privateKey,
            passphrase: old.ssh.passphrase,
            host_key: body.url === undefined ? (old.ssh.hostKey ?? undefined) : undefined,
          }
        : null;
    const parts = this.partsFrom(url, tls, ssh, row.kind);
    const reconnect = body.url !== undefined || body.tls !== undefined || body.ssh !== undefined;
    const hostKey = reconnect
      ? await this.probe(url, parts, body.save_unreachable ?? false)
      : (parts.ssh?.hostKey ?? null);
    this.repo.update(this.toRow(id, name, url, parts, hostKey, row.created_at, new Date().toISOString()));
    if (reconnect) await this.scopes.forget(id);
    this.base.log.info({ environment: id }, 'environment changed');
    return this.get(id, reconnect);
  }

  async remove(id: string): Promise<Environment> {
    const row = this.stored(id, 'removed');
    const view = this.view(row, await this.status(id, false));
    this.repo.remove(id);
    if (row.kind === 'agent') this.agents.remove(id);
    await this.scopes.forget(id);
    this.base.log.info({ environment: id }, 'environment removed');
    return view;
  }

  /** Keeps the SSH host key first seen by an environment saved without one (trust on first use). */
  rememberHostKey(id: string, hostKey: string): void {
    const row = this.repo.get(id);
    if (!row || row.kind !== 'ssh' || row.ssh_host_key) return;
    this.repo.update({ ...row, ssh_host_key: hostKey, updated_at: new Date().toISOString() });
    this.base.log.info({ environment: id, hostKey }, 'ssh host key kept from the first connection');
  }

  /** Builds every stored environment's scope at start, so each one's status is watched from then on. */
  watchAll(): void {
    for (const { id } of this.repo.list()) {
      try {
        this.scopes.get(id);
      } catch (err) {
        // Its keys do not open: the list says so; nothing to watch.
        if (!(err instanceof AppError)) throw err;
      }
    }
  }

  /** A stored environment's connection with its secrets opened (for its scope); null when unknown. */
  connectionParts(id: string): ConnectionParts | null {
    const row = this.repo.get(id);
    if (!row) return null;
    const parts = this.openParts(row);
    if (!parts)
      throw new ValidationError(
        `The stored keys of environment ${id} cannot be opened (was the signing key changed?). Edit the environment and enter its keys again.`,
      );
    return parts;
  }

  /** The stored parts with secrets opened; null when they were sealed under another signing key. */
  private openParts(row: EnvironmentRow): ConnectionParts | null {
    try {
      return storedParts(row, this.box);
    } catch (err) {
      this.base.log.warn({ environment: row.id, err: (err as Error).message }, 'environment keys cannot be opened');
      return null;
    }
  }

  private row(id: string): EnvironmentRow | null {
    if (id === LOCAL_ENVIRONMENT) return null;
    const row = this.repo.get(id);
    if (!row) throw new NotFoundError('environment', id);
    return row;
  }

  private stored(id: string, what: string): EnvironmentRow {
    if (id === LOCAL_ENVIRONMENT)
      throw new ValidationError(`The local environment comes from DOCKER_HOST; it cannot be ${what}.`);
    return this.row(id)!;
  }

  private checkName(name: string, id: string | null): void {
    if (name.toLowerCase() === 'local' || this.repo.nameTaken(name, id))
      throw new ConflictError(`An environment named ${name} exists already.`);
  }

  /** Stores a new environment row as it is (an agent environment, which has no connection to try). */
  insertRow(row: EnvironmentRow): void {
    this.checkName(row.name, null);
    if (row.id === LOCAL_ENVIRONMENT || this.repo.get(row.id))
      throw new ConflictError(`An environment with the id ${row.id} exists already.`);
    this.repo.insert(row);
  }

  /** An id for a new environment: the given one, or a free one made from the name. */
  newId(name: string, given?: string): string {
    return given ?? this.freeId(slug(name));
  }

  /** The stored row of an agent environment (404 for an unknown one, 400 for another kind). */
  agentRow(id: string): EnvironmentRow {
    const row = this.stored(id, 'given an agent');
    if (row.kind !== 'agent') throw new ValidationError(`Environment ${id} is not an agent environment.`);
    return row;
  }

  private freeId(base: string): string {
    let id = base === LOCAL_ENVIRONMENT ? 'local-2' : base;
    for (let n = 2; this.repo.get(id); n++) id = `${base}-${n}`;
    return id;
  }

  /** Checks the URL and material go together and can be read; 400 naming the field otherwise. */
  private partsFrom(
    rawUrl: string,
    tls: { ca?: string; cert?: string; key?: string } | null,
    ssh: { user?: string; private_key?: string; passphrase?: string; host_key?: string } | null,
    keptKind: string | null,
  ): ConnectionParts {
    const url = parseEnvironmentUrl(rawUrl);
    if (keptKind && keptKind !== url.kind)
      throw new ValidationError(
        `The URL must stay a ${keptKind} URL; add a new environment for another kind of connection.`,
        [{ field: 'url', message: 'Another kind of connection.' }],
      );
    if (url.kind === 'tcp') {
      if (!tls?.ca || !tls.cert || !tls.key) {
        throw new ValidationError(
          'A tcp:// environment needs TLS: the CA certificate, a client certificate and its key (Berth never talks to an engine over the network without TLS).',
          [{ field: 'tls', message: 'CA, certificate and key are required.' }],
        );
      }
      checkPem(tls.ca, tls.cert, tls.key);
      return { url, tls: { ca: tls.ca, cert: tls.cert, key: tls.key }, ssh: null };
    }
    if (url.kind === 'ssh') {
      const username = ssh?.user ?? url.user;
      if (!ssh?.private_key)
        throw new ValidationError('An ssh:// environment needs the private key of its user.', [
          { field: 'ssh.private_key', message: 'The private key is required.' },
        ]);
      if (!username)
        throw new ValidationError('Name the SSH user in the URL (ssh://user@host) or in ssh.user.', [
          { field: 'ssh.user', message: 'The user is required.' },
        ]);
      return {
        url,
        tls: null,
        ssh: {
          username,
          privateKey: ssh.private_key,
          ...(ssh.passphrase ? { passphrase: ssh.passphrase } : {}),
          hostKey: ssh.host_key ?? null,
        },
      };
    }
    if (tls || ssh)
      throw new ValidationError('A unix:// environment takes no TLS or SSH material.', [
        { field: tls ? 'tls' : 'ssh', message: 'Not used for a socket.' },
      ]);
    return { url, tls: null, ssh: null };
  }

  /**
   * Tries the connection once; refuses (502, nothing stored) when the engine does not answer,
   * unless the caller asked to save anyway. Answers the SSH host key to keep: the given one, or
   * the one the server showed (trust on first use).
   */
  private async probe(rawUrl: string, parts: ConnectionParts, saveUnreachable: boolean): Promise<string | null> {
    let seenHostKey: string | null = null;
    const docker = createEngine({ ...this.base.config, connection: connectionOf(parts, (k) => (seenHostKey = k)) });
    try {
      await docker.version();
    } catch (err) {
      const why =
        err instanceof DockerUnavailableError
          ? (err.reason ?? 'not reachable')
          : err instanceof EngineTimeoutError
            ? `no answer within ${Math.round(this.base.config.engineTimeoutMs / 1000)} s (timeout)`
            : `it did not answer as a Docker engine (${err instanceof Error ? err.message : String(err)})`;
      if (!saveUnreachable)
        throw new EnvironmentUnreachableError(`Cannot reach the engine at ${rawUrl}: ${why}. Nothing was saved.`);
      this.base.log.warn({ url: rawUrl, why }, 'environment saved while unreachable');
    }
    return parts.ssh?.hostKey ?? seenHostKey;
  }

  private toRow(
    id: string,
    name: string,
    url: string,
    parts: ConnectionParts,
    hostKey: string | null,
    created: string,
    updated: string,
  ): EnvironmentRow {
    return {
      id,
      name,
      url,
      kind: parts.url.kind,
      tls_ca: parts.tls?.ca ?? null,
      tls_cert: parts.tls?.cert ?? null,
      tls_key_sealed: parts.tls ? this.box.seal(parts.tls.key) : null,
      ssh_user: parts.ssh?.username ?? null,
      ssh_key_sealed: parts.ssh ? this.box.seal(parts.ssh.privateKey) : null,
      ssh_passphrase_sealed: parts.ssh?.passphrase ? this.box.seal(parts.ssh.passphrase) : null,
      ssh_host_key: parts.ssh ? hostKey : null,
      created_at: created,
      updated_at: updated,
    };
  }

  private view(row: EnvironmentRow, status: EnvironmentStatus): Environment {
    return {
      id: row.id,
      name: row.name,
      url: row.url,
      kind: row.kind,
      tls: row.tls_key_sealed !== null,
      ssh: row.ssh_user
        ? { user: row.ssh_user, host_key: row.ssh_host_key, passphrase: row.ssh_passphrase_sealed !== null }
        : null,
      agent: row.kind === 'agent' ? this.agents.view(row.id) : null,
      created_at: row.created_at,
      updated_at: row.updated_at,
      status,
    };
  }

  private localView(status: EnvironmentStatus): Environment {
    const url = this.base.config.dockerHost ?? DEFAULT_DOCKER_HOST;
    return {
      id: LOCAL_ENVIRONMENT,
      name: 'Local',
      url,
      kind: url.startsWith('unix:') ? 'socket' : 'tcp',
      tls: false,
      ssh: null,
      agent: null,
      created_at: null,
      updated_at: null,
      status,
    };
  }
}

/** The PEM texts parse as certificates and a private key (400 naming the bad one). */
function checkPem(ca: string, cert: string, key: string): void {
  const checks: [string, string, () => unknown][] = [
    ['tls.ca', 'The CA certificate', () => new crypto.X509Certificate(ca)],
    ['tls.cert', 'The client certificate', () => new crypto.X509Certificate(cert)],
    ['tls.key', 'The client key', () => crypto.createPrivateKey(key)],
  ];
  for (const [field, what, parse] of checks) {
    try {
      parse();
    } catch {
      throw new ValidationError(`${what} cannot be read as PEM.`, [{ field, message: `${what} cannot be read.` }]);
    }
  }
}
