import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { HostNotAllowedError } from '../errors';

/**
 * Always served: a rebinding page's requests carry the attacker's host name, never a loopback
 * one, and the container health check and local tools call 127.0.0.1.
 */
const LOOPBACK = ['localhost', '127.0.0.1', '::1'];

/** Loopback plus this machine's own host names and interface addresses. */
export function defaultAllowedHosts(): string[] {
  const hosts = new Set(LOOPBACK);
  const name = os.hostname().toLowerCase();
  if (name) {
    hosts.add(name);
    hosts.add(name.split('.')[0] ?? name);
  }
  for (const addrs of Object.values(os.networkInterfaces())) {
    for (const a of addrs ?? []) hosts.add(a.address.toLowerCase().replace(/%.*$/, ''));
  }
  return [...hosts];
}

/** The host name of a Host header value: port and IPv6 brackets removed, lower case. */
export function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') === -1 ? undefined : h.indexOf(']'));
  // A bare IPv6 address (several colons) has no port part.
  if (h.split(':').length > 2) return h;
  return h.replace(/:\d*$/, '').replace(/\.$/, '');
}

/**
 * DNS-rebinding guard: every request must name, in its Host header (or X-Forwarded-Host from a
 * trusted proxy), a host Berth serves. A page on attacker.example that rebinds its name to this
 * machine then gets 421 instead of the API. Loopback names are always served; `ALLOWED_HOSTS=*`
 * turns the check off.
 */
export function registerAllowedHosts(app: FastifyInstance, config: Config): void {
  const allowed = new Set([...LOOPBACK, ...(config.allowedHosts ?? defaultAllowedHosts())]);
  if (allowed.has('*')) return;
  app.addHook('onRequest', async (req) => {
    const name = hostnameOf(req.host);
    if (!allowed.has(name)) throw new HostNotAllowedError(name);
  });
}
