import type { EnvironmentKind } from '@berth/contract';
import type { EnvironmentRow } from '../../db/environments-repo';
import type { EngineConnection, SshMaterial, TlsMaterial } from '../../docker/connection';

/** Seals and opens the environments' secrets (lib/secret-box under the environments' own derived key). */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

/** An environment URL taken apart. */
export interface ParsedUrl {
  kind: EnvironmentKind;
  host: string;
  port: number;
  user: string | null;
  socketPath: string | null;
}

export function parseEnvironmentUrl(raw: string): ParsedUrl {
  const url = new URL(raw);
  if (url.protocol === 'unix:') return { kind: 'socket', host: '', port: 0, user: null, socketPath: url.pathname };
  // An agent environment (agent://<id>): reached through its agent's tunnel, see services/agents.
  if (url.protocol === 'agent:') return { kind: 'agent', host: url.hostname, port: 0, user: null, socketPath: null };
  const kind: EnvironmentKind = url.protocol === 'ssh:' ? 'ssh' : 'tcp';
  // URL keeps IPv6 hosts in brackets; the socket layer wants them bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    kind,
    host,
    port: Number(url.port || (kind === 'ssh' ? 22 : 2376)),
    user: url.username ? decodeURIComponent(url.username) : null,
    socketPath: null,
  };
}

/** What the compose CLI gets as DOCKER_HOST for an environment. */
export function cliDockerHost(url: ParsedUrl, sshUser: string | null): string {
  if (url.kind === 'agent') throw new Error('an agent environment is reached through its tunnel socket');
  if (url.kind === 'socket') return `unix://${url.socketPath}`;
  const host = url.host.includes(':') ? `[${url.host}]` : url.host;
  if (url.kind === 'tcp') return `tcp://${host}:${url.port}`;
  return `ssh://${sshUser ? `${sshUser}@` : ''}${host}:${url.port}`;
}

/** The parts of a connection before its secrets are added: made from a request or a stored row. */
export interface ConnectionParts {
  url: ParsedUrl;
  tls: TlsMaterial | null;
  ssh: (Omit<SshMaterial, 'onHostKey'> & { username: string }) | null;
}

export function connectionOf(parts: ConnectionParts, onHostKey?: (key: string) => void): EngineConnection {
  const { url } = parts;
  if (url.kind === 'agent') throw new Error('an agent environment is reached through its tunnel socket');
  if (url.kind === 'socket') return { kind: 'socket', socketPath: url.socketPath! };
  if (url.kind === 'tcp') return { kind: 'tcp', host: url.host, port: url.port, tls: parts.tls };
  return { kind: 'ssh', host: url.host, port: url.port, ...parts.ssh!, ...(onHostKey ? { onHostKey } : {}) };
}

/** A stored environment's connection parts with its secrets opened. */
export function storedParts(row: EnvironmentRow, box: SecretBox): ConnectionParts {
  const url = parseEnvironmentUrl(row.url);
  const tls =
    row.tls_ca && row.tls_cert && row.tls_key_sealed
      ? { ca: row.tls_ca, cert: row.tls_cert, key: box.open(row.tls_key_sealed) }
      : null;
  const ssh =
    row.ssh_user && row.ssh_key_sealed
      ? {
          username: row.ssh_user,
          privateKey: box.open(row.ssh_key_sealed),
          ...(row.ssh_passphrase_sealed ? { passphrase: box.open(row.ssh_passphrase_sealed) } : {}),
          hostKey: row.ssh_host_key,
        }
      : null;
  return { url, tls, ssh };
}
