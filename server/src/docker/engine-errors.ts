import {
  AppError,
  ConflictError,
  DockerUnavailableError,
  EngineError,
  NotFoundError,
  NotInSwarmError,
  PortInUseError,
  ValidationError,
} from '../errors';

/** What one engine call is about, for its timeout and error wording. */
export interface Target {
  kind:
    | 'container'
    | 'image'
    | 'volume'
    | 'network'
    | 'exec'
    | 'engine'
    | 'swarm'
    | 'node'
    | 'service'
    | 'task'
    | 'config'
    | 'secret';
  /** The name or id the caller gave; absent for lists and engine-wide calls. */
  ref?: string;
  /** What Berth asked, as a phrase: "inspecting container web". */
  doing: string;
}

export interface DockerodeError {
  code?: string;
  statusCode?: number;
  reason?: string;
  json?: { message?: string } | null;
  message?: string;
  name?: string;
}

/** Why an engine could not be reached, by the socket error's code. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing listens at that address and port)',
  ENOENT: 'no socket at that path',
  EACCES: 'permission denied on the socket',
  ECONNRESET: 'the connection was closed by the other side',
  EPIPE: 'the connection was closed by the other side',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ENOTFOUND: 'the host name is unknown',
  EAI_AGAIN: 'the host name could not be looked up',
};

/** Node's codes for a server certificate our CA does not vouch for (or that names another host). */
const SERVER_CERT_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * How a connection to an engine failed, in words, for a failure that is about reaching it (socket,
 * TLS, SSH) rather than the engine's answer; null for anything else.
 */
export function connectionFailure(err: unknown): string | null {
  const e = err as DockerodeError & { level?: string };
  const message = typeof e?.message === 'string' ? e.message : '';
  const code = typeof e?.code === 'string' ? e.code : '';
  if (e?.level === 'client-authentication')
    return 'SSH authentication failed: the server did not accept the private key for this user';
  if (e?.level === 'handshake' && /host denied/i.test(message))
    return "SSH host key verification failed: the server's host key is not the one stored for this environment";
  if (e?.level === 'client-timeout') return 'the SSH handshake timed out';
  if (/Cannot parse privateKey/i.test(message))
    return `the SSH private key cannot be read (${message.replace(/^Cannot parse privateKey:\s*/i, '')})`;
  if (SERVER_CERT_CODES.has(code)) return `TLS verification of the engine's certificate failed: ${message}`;
  if (/^ERR_SSL_.*ALERT/.test(code))
    return `TLS handshake failed: the engine refused the client certificate (${message.replace(/^.*?:(?=[^:]*alert)/i, '').trim()})`;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'EPROTO')
    return 'TLS handshake failed: the engine at that port does not speak TLS';
  if (/^ERR_(SSL|OSSL)_/.test(code)) return `TLS setup failed: ${message}`;
  if (UNREACHABLE[code]) return UNREACHABLE[code];
  if (/socket hang up/i.test(message)) return 'the connection was closed before the engine answered';
  if (e?.level === 'client-socket' || e?.level === 'client-dns') return message || 'the connection failed';
  return null;
}

function engineMessage(e: DockerodeError): string {
  // Streaming calls leave `json` empty; the engine's reason is then only in the message,
  // as `(HTTP code 404) unexpected - <reason>`.
  const fromMessage =
    typeof e.message === 'string' ? e.message.match(/^\(HTTP code \d+\) [^-]*- ([\s\S]+)$/)?.[1] : undefined;
  const message =
    e.json?.message ??
    fromMessage ??
    (typeof e.reason === 'string' ? e.reason : undefined) ??
    'The Docker engine refused the request.';
  return message.trim();
}

/** The one translation of an engine failure into Berth's errors. */
export function translate(err: unknown, t: Target): Error {
  if (err instanceof AppError) return err;
  const e = err as DockerodeError;
  const failure = typeof e?.statusCode === 'number' ? null : connectionFailure(err);
  if (failure) return new DockerUnavailableError(undefined, failure);
  if (typeof e?.statusCode !== 'number') return err instanceof Error ? err : new Error(String(err));
  const message = engineMessage(e);
  if (/worker nodes can't be used/i.test(message))
    return new NotInSwarmError('This Docker engine is a swarm worker; swarm pages need a manager node of the swarm.');
  if (/not a swarm manager|not part of a swarm/i.test(message)) return new NotInSwarmError();
  // A swarm write made against an older version of the object, or a config/secret still in use.
  if (/update out of sequence/i.test(message))
    return new ConflictError(`${t.ref ?? 'The object'} was changed meanwhile; reload it and try again.`);
  if (/is in use by the following service/i.test(message))
    return new ConflictError(message.replace(/^rpc error: code = \w+ desc = /, ''));
  if (e.statusCode === 404) {
    if (!t.ref) return new EngineError(404, message);
    // A pull's 404 comes from the registry, whose words ("manifest unknown") say more.
    return new NotFoundError(t.kind, t.ref, t.doing.startsWith('pulling') ? message : undefined);
  }
  if (
    e.statusCode === 409 ||
    /marked for removal|removal of container .* (is )?already in progress|is being removed/i.test(message)
  ) {
    return new ConflictError(message);
  }
  if (/port is already allocated|address already in use/i.test(message)) return new PortInUseError(message);
  const sysctl = message.match(
    /sysctl "?([\w./-]+)"? (is not in a separate kernel namespace|is not allowed|not allowed)/i,
  );
  if (sysctl) {
    const problem = `The kernel setting ${sysctl[1]} cannot be set for one container (it is not namespaced); remove it from Sysctls.`;
    return new ValidationError(`sysctls: ${problem}`, [{ field: 'sysctls', message: problem }]);
  }
  return new EngineError(e.statusCode, message);
}
