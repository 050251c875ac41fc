import type { FastifyRequest } from 'fastify';

/** Query parameter names whose values are secrets (compared case-insensitively, `-` as `_`). */
const SECRET_NAMES =
  /^(token|access_token|refresh_token|id_token|api_?key|apikey|key|password|passwd|pass|secret|client_secret|signature|sig|auth|authorization|csrf|csrf_token|code|session|sid)$/;
/** …and names that merely contain one of these words. */
const SECRET_PARTS = /token|password|passwd|secret|api_?key|signature|credential/;

export const REDACTED = '[redacted]';

function isSecretName(name: string): boolean {
  const n = name.toLowerCase().replace(/-/g, '_');
  return SECRET_NAMES.test(n) || SECRET_PARTS.test(n);
}

/**
 * A request URL with the values of secret-looking query parameters replaced, so a
 * `?token=` or `?api_key=` never reaches the log. Path and other parameters stay as they are.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hashAt = url.indexOf('#', q);
  const query = url.slice(q + 1, hashAt === -1 ? undefined : hashAt);
  const parts = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      // A malformed escape: judge the raw name.
    }
    return eq !== -1 && isSecretName(name) ? `${rawName}=${REDACTED}` : pair;
  });
  return `${url.slice(0, q)}?${parts.join('&')}${hashAt === -1 ? '' : url.slice(hashAt)}`;
}

/** Fastify's request log serializer, with the URL redacted (wired in app.ts for every level). */
export function requestSerializer(req: FastifyRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
