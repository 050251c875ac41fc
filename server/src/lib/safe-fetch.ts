import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { cidrContainsIp, parseCidr, parseIp, type Cidr, type IpAddress } from './cidr';

/**
 * GET of a URL a user typed, without letting it reach what it must not (SSRF): http(s) only, no
 * user:password part, a total deadline, a body cap, a few redirects each checked again, and every
 * address checked where the connection is made. Names are resolved by our own lookup and the socket
 * connects to the address that was checked, so a DNS answer that changes between check and connect
 * (rebinding) gains nothing. Errors never carry the upstream body.
 */
export interface SafeFetchOptions {
  /** 127.0.0.0/8 and ::1 (refused by default). */
  allowLoopback?: boolean;
  /** Whole exchange, redirects and body included. Default 15 s. */
  timeoutMs?: number;
  /** Default 5 MiB. */
  maxBytes?: number;
  /** Default 3. */
  maxRedirects?: number;
  headers?: Record<string, string>;
  /** Default GET. A POST sends `body` and follows no redirect (a 3xx answer is an error). */
  method?: 'GET' | 'POST';
  body?: string | Buffer;
  /** PEM CA certificate(s) trusted for https instead of the system's (a private registry's own CA). */
  ca?: string;
  /** Answer any HTTP status (its body read under the same cap) instead of throwing `http_status` for a non-2xx one. */
  anyStatus?: boolean;
}

export interface SafeFetchResult {
  /** The URL finally read (after redirects). */
  url: string;
  status: number;
  contentType: string | null;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type SafeFetchFailure =
  'bad_url' | 'blocked_address' | 'timeout' | 'too_large' | 'http_status' | 'too_many_redirects' | 'network' | 'tls';

export class SafeFetchError extends Error {
  constructor(
    readonly reason: SafeFetchFailure,
    message: string,
    /** The upstream HTTP status, for `http_status`. */
    readonly status?: number,
    /** Node's error code, for `tls` and `network` (`EPROTO`: the server speaks no TLS). */
    readonly code?: string,
  ) {
    super(message);
  }
}

const cidrs = (list: [string, string][]): [Cidr, string][] => list.map(([c, why]) => [parseCidr(c)!, why]);
const BLOCKED = cidrs([
  ['0.0.0.0/8', 'an unspecified address'],
  ['169.254.0.0/16', 'a link-local address (cloud metadata lives there)'],
  ['100.100.100.200/32', 'a cloud metadata address'],
  ['192.0.0.192/32', 'a cloud metadata address'],
  ['224.0.0.0/4', 'a multicast address'],
  ['240.0.0.0/4', 'a reserved address'],
  ['::/128', 'an unspecified address'],
  ['fe80::/10', 'a link-local address'],
  ['fd00:ec2::254/128', 'a cloud metadata address'],
  ['ff00::/8', 'a multicast address'],
]);
const LOOPBACK = cidrs([
  ['127.0.0.0/8', 'a loopback address'],
  ['::1/128', 'a loopback address'],
]);
/** IPv6 forms that carry an IPv4 address inside (mapped, NAT64, compatible, 6to4): judged by that address. */
const EMBEDDING: [Cidr, (v: bigint) => bigint][] = [
  [parseCidr('::ffff:0:0/96')!, (v) => v & 0xffffffffn],
  [parseCidr('64:ff9b::/96')!, (v) => v & 0xffffffffn],
  [parseCidr('::/96')!, (v) => v & 0xffffffffn],
  [parseCidr('2002::/16')!, (v) => (v >> 80n) & 0xffffffffn],
];

function classify(ip: IpAddress, allowLoopback: boolean): string | null {
  for (const [c, why] of LOOPBACK) if (cidrContainsIp(c, ip)) return allowLoopback ? null : why;
  for (const [c, why] of BLOCKED) if (cidrContainsIp(c, ip)) return why;
  if (ip.version === 6) {
    for (const [c, extract] of EMBEDDING) {
      if (cidrContainsIp(c, ip)) return classify({ version: 4, value: extract(ip.value) }, allowLoopback);
    }
  }
  return null;
}

/** Why an address may not be fetched from, or null when it may. Unparseable text is refused too. */
export function blockedAddressReason(address: string, allowLoopback = false): string | null {
  const ip = parseIp(address);
  return ip ? classify(ip, allowLoopback) : 'not an address';
}

function refused(host: string, address: string, why: string): SafeFetchError {
  const shown = host === address ? address : `${host} (${address})`;
  return new SafeFetchError('blocked_address', `Refused to fetch from ${shown}: it is ${why}.`);
}

/** Resolves every address of a name, refuses the name if any of them is blocked, and hands the checked ones to the socket. */
function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      if (!addresses.length)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      for (const a of addresses) {
        const why = blockedAddressReason(a.address, allowLoopback);
        if (why) return callback(refused(hostname, a.address, why), '', 0);
      }
      if (options.all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** Parses and checks one URL (the first and every redirect target). */
function checkUrl(text: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SafeFetchError('bad_url', 'Invalid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SafeFetchError(
      'bad_url',
      `Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}.`,
    );
  if (url.username || url.password)
    throw new SafeFetchError('bad_url', 'URLs with a user name or password are not fetched.');
  if (!url.hostname) throw new SafeFetchError('bad_url', 'The URL has no host.');
  // The URL parser has already turned 127.1, 2130706433 and 0x7f.1 into dotted form.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (parseIp(literal)) {
    const why = blockedAddressReason(literal, allowLoopback);
    if (why) throw refused(literal, literal, why);
  }
  return url;
}

/** Certificate failures by Node's code, in words. */
const TLS_FAILURES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the certificate chain ends in an untrusted self-signed CA',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate is signed by an unknown authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate is signed by an unknown authority',
  UNABLE_TO_GET_ISSUER_CERT: 'the certificate is signed by an unknown authority',
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate does not name this host',
  CERT_SIGNATURE_FAILURE: 'the certificate signature is invalid',
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function open(
  url: URL,
  opts: Required<Pick<SafeFetchOptions, 'allowLoopback'>> & SafeFetchOptions,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const method = opts.method ?? 'GET';
    const req = request(
      url,
      {
        method,
        lookup: guardedLookup(opts.allowLoopback),
        signal,
        agent: false,
        headers: opts.headers ?? {},
        ...(opts.ca ? { ca: opts.ca } : {}),
      },
      resolve,
    );
    req.on('error', reject);
    req.end(method === 'POST' ? (opts.body ?? '') : undefined);
  });
}

function readBody(res: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const tooLarge = () =>
    new SafeFetchError('too_large', `The response is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB.`);
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const onAbort = () => res.destroy(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    // Settles once: destroying the response below fires its own 'error'/'aborted', which must not win.
    const done = (err: Error | null) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        done(tooLarge());
        res.destroy();
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => done(null));
    res.on('error', (err) => done(err));
    res.on('aborted', () =>
      done(new SafeFetchError('network', 'The connection closed before the whole response arrived.')),
    );
  });
}

/** Fetches `input` with every guard above; throws SafeFetchError with a message a person can act on. */
export async function safeFetch(input: string, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const opts = {
    allowLoopback: false,
    timeoutMs: 15_000,
    maxBytes: 5 * 1024 * 1024,
    maxRedirects: options.method === 'POST' ? 0 : 3,
    ...options,
  };
  const seconds = Math.round(opts.timeoutMs / 100) / 10;
  const timeoutError = new SafeFetchError('timeout', `No complete answer within ${seconds} s.`);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(timeoutError), opts.timeoutMs);
  try {
    let url = checkUrl(input, opts.allowLoopback);
    for (let hop = 0; ; hop++) {
      const res = await open(url, opts, controller.signal);
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status) && res.headers.location) {
        res.destroy();
        if (hop >= opts.maxRedirects)
          throw new SafeFetchError('too_many_redirects', `More than ${opts.maxRedirects} redirects.`);
        url = checkUrl(new URL(res.headers.location, url).toString(), opts.allowLoopback);
        continue;
      }
      if ((status < 200 || status > 299) && !opts.anyStatus) {
        res.destroy();
        throw new SafeFetchError(
          'http_status',
          `The server answered HTTP ${status} ${http.STATUS_CODES[status] ?? ''}`.trim() + '.',
          status,
        );
      }
      const body = await readBody(res, opts.maxBytes, controller.signal);
      return {
        url: url.toString(),
        status,
        contentType: res.headers['content-type'] ?? null,
        headers: res.headers,
        body,
      };
    }
  } catch (err) {
    if (controller.signal.aborted) throw timeoutError;
    if (err instanceof SafeFetchError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code && TLS_FAILURES[code])
      throw new SafeFetchError('tls', `TLS failed: ${TLS_FAILURES[code]} (${code}).`, undefined, code);
    if (code === 'EPROTO' || /SSL|TLS/.test(code ?? ''))
      throw new SafeFetchError(
        'tls',
        `TLS failed: the server does not speak TLS as expected (${code}).`,
        undefined,
        code,
      );
    const what =
      code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the host name does not resolve'
        : code === 'ECONNREFUSED'
          ? 'the connection was refused'
          : 'the connection failed';
    throw new SafeFetchError('network', `Could not fetch the URL: ${what}${code ? ` (${code})` : ''}.`);
  } finally {
    clearTimeout(timer);
  }
}
