import Docker from 'dockerode';
import { DockerUnavailableError, EngineError } from '../errors';

export type DockerClient = Docker;

/** Builds the dockerode client for DOCKER_HOST (unix:// or tcp://) or the default socket. */
export function createDockerClient(dockerHost: string | undefined): Docker {
  if (!dockerHost) return new Docker({ socketPath: '/var/run/docker.sock' });
  const url = new URL(dockerHost);
  if (url.protocol === 'unix:') return new Docker({ socketPath: url.pathname });
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return new Docker({ protocol, host: url.hostname, port: Number(url.port || (protocol === 'https' ? 2376 : 2375)) });
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOENT', 'EACCES', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

interface DockerodeError {
  code?: string;
  statusCode?: number;
  reason?: string;
  json?: { message?: string } | null;
  message?: string;
}

export function isUnreachable(err: unknown): boolean {
  const e = err as DockerodeError;
  return typeof e?.code === 'string' && UNREACHABLE.has(e.code);
}

/** Translates an engine failure once, at the edge: unreachable → 503, engine status → same status with its message. */
export function translateEngineError(err: unknown): Error {
  if (err instanceof EngineError || err instanceof DockerUnavailableError) return err;
  const e = err as DockerodeError;
  if (isUnreachable(err)) return new DockerUnavailableError();
  if (typeof e?.statusCode === 'number') {
    // Streaming calls leave `json` empty; the engine's reason is then only in the message,
    // as `(HTTP code 404) unexpected - <reason>`.
    const fromMessage = typeof e.message === 'string' ? e.message.match(/^\(HTTP code \d+\) [^-]*- ([\s\S]+)$/)?.[1] : undefined;
    const message = e.json?.message ?? fromMessage ?? (typeof e.reason === 'string' ? e.reason : undefined) ?? 'The Docker engine refused the request.';
    return new EngineError(e.statusCode, message.trim());
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** Runs one engine call and translates its failure. */
export async function engineCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw translateEngineError(err);
  }
}
