import { AppError, ConflictError, DockerUnavailableError, EngineError, NotFoundError, NotInSwarmError, PortInUseError, ValidationError } from '../errors';

/** What one engine call is about, for its timeout and error wording. */
export interface Target {
  kind: 'container' | 'image' | 'volume' | 'network' | 'exec' | 'engine' | 'swarm' | 'node' | 'service' | 'task' | 'config' | 'secret';
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

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOENT', 'EACCES', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

function engineMessage(e: DockerodeError): string {
  // Streaming calls leave `json` empty; the engine's reason is then only in the message,
  // as `(HTTP code 404) unexpected - <reason>`.
  const fromMessage = typeof e.message === 'string' ? e.message.match(/^\(HTTP code \d+\) [^-]*- ([\s\S]+)$/)?.[1] : undefined;
  const message = e.json?.message ?? fromMessage ?? (typeof e.reason === 'string' ? e.reason : undefined) ?? 'The Docker engine refused the request.';
  return message.trim();
}

/** The one translation of an engine failure into Berth's errors. */
export function translate(err: unknown, t: Target): Error {
  if (err instanceof AppError) return err;
  const e = err as DockerodeError;
  if (typeof e?.code === 'string' && UNREACHABLE.has(e.code)) return new DockerUnavailableError();
  if (typeof e?.statusCode !== 'number') return err instanceof Error ? err : new Error(String(err));
  const message = engineMessage(e);
  if (/worker nodes can't be used/i.test(message)) return new NotInSwarmError('This Docker engine is a swarm worker; swarm pages need a manager node of the swarm.');
  if (/not a swarm manager|not part of a swarm/i.test(message)) return new NotInSwarmError();
  // A swarm write made against an older version of the object, or a config/secret still in use.
  if (/update out of sequence/i.test(message)) return new ConflictError(`${t.ref ?? 'The object'} was changed meanwhile; reload it and try again.`);
  if (/is in use by the following service/i.test(message)) return new ConflictError(message.replace(/^rpc error: code = \w+ desc = /, ''));
  if (e.statusCode === 404) {
    if (!t.ref) return new EngineError(404, message);
    // A pull's 404 comes from the registry, whose words ("manifest unknown") say more.
    return new NotFoundError(t.kind, t.ref, t.doing.startsWith('pulling') ? message : undefined);
  }
  if (e.statusCode === 409 || /marked for removal|removal of container .* (is )?already in progress|is being removed/i.test(message)) {
    return new ConflictError(message);
  }
  if (/port is already allocated|address already in use/i.test(message)) return new PortInUseError(message);
  const sysctl = message.match(/sysctl "?([\w./-]+)"? (is not in a separate kernel namespace|is not allowed|not allowed)/i);
  if (sysctl) {
    const problem = `The kernel setting ${sysctl[1]} cannot be set for one container (it is not namespaced); remove it from Sysctls.`;
    return new ValidationError(`sysctls: ${problem}`, [{ field: 'sysctls', message: problem }]);
  }
  return new EngineError(e.statusCode, message);
}
