import type Docker from 'dockerode';
import { dockerode } from './dockerode-load';

export interface TlsMaterial {
  ca: string;
  cert: string;
  key: string;
}

export interface SshMaterial {
  username: string;
  privateKey: string;
  passphrase?: string;
  /** The server's known host key (`ssh-ed25519 AAAA…`); null accepts the first one seen and reports it. */
  hostKey: string | null;
  /** Told the key the server showed when none was known (trust on first use). */
  onHostKey?: (hostKey: string) => void;
}

/** How one engine is reached. */
export type EngineConnection =
  | { kind: 'socket'; socketPath: string }
  /** `tls` null: plain HTTP, or HTTPS checked against the system's CAs when `https`. */
  | { kind: 'tcp'; host: string; port: number; tls: TlsMaterial | null; https?: boolean }
  | ({ kind: 'ssh'; host: string; port: number } & SshMaterial);

/** The default socket when DOCKER_HOST is unset (dockerode's and the docker CLI's default). */
const DEFAULT_SOCKET = '/var/run/docker.sock';

/** DOCKER_HOST (unix:// or tcp://, Berth's own engine) as a connection. */
export function connectionFromHost(dockerHost: string | undefined): EngineConnection {
  if (!dockerHost) return { kind: 'socket', socketPath: DEFAULT_SOCKET };
  const url = new URL(dockerHost);
  if (url.protocol === 'unix:') return { kind: 'socket', socketPath: url.pathname };
  const https = url.protocol === 'https:';
  return { kind: 'tcp', host: url.hostname, port: Number(url.port || (https ? 2376 : 2375)), tls: null, https };
}

/** An SSH public key blob (as the server sends it) in known_hosts form: `<type> <base64>`. */
export function hostKeyLine(blob: Buffer): string {
  const typeLength = blob.length >= 4 ? blob.readUInt32BE(0) : 0;
  const type = blob.subarray(4, 4 + typeLength).toString('latin1');
  return `${type} ${blob.toString('base64')}`;
}

/** The type and base64 words of a host key line; a trailing comment is ignored. */
const keyWords = (line: string) => line.trim().split(/\s+/).slice(0, 2).join(' ');

/**
 * dockerode for a connection. TLS goes through Node's tls (dockerode's ca/cert/key options, the
 * server's name checked against its certificate); SSH through docker-modem's ssh2 support (the
 * remote runs `docker system dial-stdio`), key-only, with the host key checked. Never dockerode's
 * `timeout` option: the facade has its own (that option crashes the process over ssh).
 */
export function dockerFor(conn: EngineConnection): Docker {
  const Docker = dockerode();
  if (conn.kind === 'socket') return new Docker({ socketPath: conn.socketPath });
  if (conn.kind === 'tcp') {
    if (!conn.tls) return new Docker({ protocol: conn.https ? 'https' : 'http', host: conn.host, port: conn.port });
    return new Docker({
      protocol: 'https',
      host: conn.host,
      port: conn.port,
      ca: conn.tls.ca,
      cert: conn.tls.cert,
      key: conn.tls.key,
    });
  }
  // Trust on first use: once a key was seen (and reported), every later connection must show the same one.
  let known = conn.hostKey ? keyWords(conn.hostKey) : null;
  return new Docker({
    protocol: 'ssh',
    host: conn.host,
    port: conn.port,
    username: conn.username,
    sshOptions: {
      privateKey: conn.privateKey,
      ...(conn.passphrase ? { passphrase: conn.passphrase } : {}),
      // No agent, no password: the stored key is the only way in.
      agent: undefined,
      tryKeyboard: false,
      readyTimeout: 20_000,
      hostVerifier: (blob: Buffer) => {
        const seen = hostKeyLine(blob);
        if (known) return seen === known;
        known = seen;
        conn.onHostKey?.(seen);
        return true;
      },
    },
  } as Docker.DockerOptions);
}
