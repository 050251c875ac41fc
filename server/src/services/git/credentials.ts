import { randomUUID } from 'node:crypto';
import type { CreateGitCredentialBody, GitCredential, UpdateGitCredentialBody } from '@berth/contract';
import type { GitAuth } from '../../compose/git-cli';
import type { GitCredentialRow, GitRepo } from '../../db/git-repo';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import { open, seal } from '../../lib/secret-box';

/** known_hosts lines as kept: `host keytype base64`, one a line, comments and blanks dropped. */
export function knownHostLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(/\s+/).slice(0, 3).join(' '));
}

function checkKnownHosts(text: string): string {
  const lines = knownHostLines(text);
  for (const l of lines)
    if (l.split(' ').length !== 3 || !/^[A-Za-z0-9+/]+=*$/.test(l.split(' ')[2]!))
      throw new ValidationError('known_hosts: each line is "host key-type base64-key".', [
        { field: 'known_hosts', message: 'Each line is "host key-type base64-key".' },
      ]);
  return lines.length ? `${lines.join('\n')}\n` : '';
}

function checkPrivateKey(key: string): void {
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key))
    throw new ValidationError('private_key: an SSH private key (PEM or OpenSSH format) without a passphrase.', [
      { field: 'private_key', message: 'An SSH private key without a passphrase.' },
    ]);
}

/** Git credentials (admin managed): the token or key sealed at rest, never returned, never logged. */
export class GitCredentialsService {
  constructor(
    private readonly repo: GitRepo,
    /** The secret-box key for "git-credentials". */
    private readonly key: Uint8Array,
  ) {}

  private view(row: GitCredentialRow): GitCredential {
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      username: row.username,
      known_hosts: knownHostLines(row.known_hosts),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  private row(id: string): GitCredentialRow {
    const row = this.repo.credential(id);
    if (!row) throw new NotFoundError('git credential', id);
    return row;
  }

  list(): GitCredential[] {
    return this.repo.credentials().map((r) => this.view(r));
  }

  get(id: string): GitCredential {
    return this.view(this.row(id));
  }

  create(body: CreateGitCredentialBody): GitCredential {
    const now = new Date().toISOString();
    if (body.kind === 'ssh') checkPrivateKey(body.private_key);
    const row: GitCredentialRow = {
      id: randomUUID(),
      name: body.name,
      kind: body.kind,
      username: body.kind === 'https' ? body.username : null,
      secret_sealed: seal(this.key, body.kind === 'https' ? body.token : body.private_key),
      known_hosts: body.kind === 'ssh' ? checkKnownHosts(body.known_hosts ?? '') : '',
      created_at: now,
      updated_at: now,
    };
    this.repo.insertCredential(row);
    return this.view(row);
  }

  update(id: string, body: UpdateGitCredentialBody): GitCredential {
    const row = this.row(id);
    const https = row.kind === 'https';
    if ((body.username !== undefined || body.token !== undefined) && !https)
      throw new ValidationError('An SSH credential has a private key, not a username or token.');
    if ((body.private_key !== undefined || body.known_hosts !== undefined) && https)
      throw new ValidationError('An HTTPS credential has a username and token, not a key.');
    if (body.private_key !== undefined) checkPrivateKey(body.private_key);
    const secret = body.token ?? body.private_key;
    const next: GitCredentialRow = {
      ...row,
      name: body.name ?? row.name,
      username: body.username ?? row.username,
      secret_sealed: secret === undefined ? row.secret_sealed : seal(this.key, secret),
      known_hosts: body.known_hosts === undefined ? row.known_hosts : checkKnownHosts(body.known_hosts),
      updated_at: new Date().toISOString(),
    };
    this.repo.updateCredential(next);
    return this.view(next);
  }

  delete(id: string): { id: string } {
    this.row(id);
    if (this.repo.credentialInUse(id))
      throw new ConflictError('A git-backed project uses this credential; change or remove that project first.');
    this.repo.deleteCredential(id);
    return { id };
  }

  /** Checks a credential exists (before a project names it). */
  exists(id: string): void {
    this.row(id);
  }

  /** The credential opened for one git session. */
  auth(id: string | null): GitAuth | null {
    if (id === null) return null;
    const row = this.row(id);
    const secret = open(this.key, row.secret_sealed);
    return row.kind === 'https'
      ? { kind: 'https', username: row.username ?? '', token: secret }
      : { kind: 'ssh', privateKey: secret, knownHosts: row.known_hosts };
  }

  /** After an SSH session: the host keys it saw first are kept (a changed key was refused by ssh itself). */
  keepKnownHosts(id: string | null, knownHosts: string | null): void {
    if (id === null || knownHosts === null) return;
    const row = this.repo.credential(id);
    if (!row || row.kind !== 'ssh') return;
    const next = checkKnownHosts(knownHosts);
    if (next === row.known_hosts) return;
    this.repo.updateCredential({ ...row, known_hosts: next, updated_at: new Date().toISOString() });
  }
}
