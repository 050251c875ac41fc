import crypto from 'node:crypto';
import dns from 'node:dns/promises';
import type { ChannelBody } from '@berth/contract';
import { blockedAddressReason, safeFetch, SafeFetchError } from '../../lib/safe-fetch';

/** One message to send; `details` are the facts (app, exit code...) a receiver may want to read. */
export interface Notification {
  event: string;
  environment: string;
  app?: string;
  project?: string;
  title: string;
  message: string;
  details: Record<string, string | number>;
}

const TIMEOUT_MS = 15_000;
/** Channel URLs come from an admin: private and loopback addresses are fine, link-local and metadata addresses never. */
const FETCH = { allowLoopback: true, timeoutMs: TIMEOUT_MS, maxBytes: 64 * 1024 };

const text = (n: Notification) => `${n.title}\n${n.message}`;

function post(url: string, body: string, headers: Record<string, string>) {
  return safeFetch(url, { ...FETCH, method: 'POST', body, headers: { 'User-Agent': 'Berth', ...headers } });
}

/** Sends `n` through a channel (its full settings, secrets opened); throws an Error whose message is safe to show. */
export async function send(channel: ChannelBody, n: Notification): Promise<void> {
  try {
    await deliver(channel, n);
  } catch (err) {
    if (err instanceof SafeFetchError) throw new Error(err.message);
    throw err;
  }
}

async function deliver(channel: ChannelBody, n: Notification): Promise<void> {
  switch (channel.type) {
    case 'webhook': {
      const body = JSON.stringify({ ...n, time: new Date().toISOString() });
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (channel.header_name && channel.header_value) headers[channel.header_name] = channel.header_value;
      if (channel.signing_secret)
        headers['X-Berth-Signature'] =
          `sha256=${crypto.createHmac('sha256', channel.signing_secret).update(body).digest('hex')}`;
      await post(channel.url, body, headers);
      return;
    }
    case 'ntfy': {
      const headers: Record<string, string> = { Title: n.title.replace(/[\r\n]/g, ' '), Tags: n.event };
      if (channel.token) headers.Authorization = `Bearer ${channel.token}`;
      await post(`${channel.url.replace(/\/+$/, '')}/${channel.topic}`, n.message, headers);
      return;
    }
    case 'discord':
      await post(channel.url, JSON.stringify({ content: text(n).slice(0, 2000) }), {
        'Content-Type': 'application/json',
      });
      return;
    case 'slack':
      await post(channel.url, JSON.stringify({ text: text(n) }), { 'Content-Type': 'application/json' });
      return;
    case 'email':
      await sendMail(channel, n);
      return;
  }
}

async function sendMail(channel: Extract<ChannelBody, { type: 'email' }>, n: Notification): Promise<void> {
  await assertHostAllowed(channel.host);
  // Loaded on the first email sent: an install without an email channel never holds it.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: channel.host,
    port: channel.port,
    secure: channel.tls === 'tls',
    requireTLS: channel.tls === 'starttls',
    ignoreTLS: channel.tls === 'none',
    ...(channel.user ? { auth: { user: channel.user, pass: channel.password ?? '' } } : {}),
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    const details = Object.entries(n.details).map(([k, v]) => `${k}: ${v}`);
    await transport.sendMail({
      from: channel.from,
      to: channel.to,
      subject: n.title,
      text: [n.message, '', ...details].join('\n'),
    });
  } catch (err) {
    // nodemailer's messages name the step that failed (connect, auth, recipient) and carry no password.
    throw new Error(`Email not sent: ${err instanceof Error ? err.message : 'unknown error'}`);
  } finally {
    transport.close();
  }
}

/** The SMTP host must not be (or resolve to) a link-local or metadata address. */
async function assertHostAllowed(host: string): Promise<void> {
  const literal = host.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses =
      blockedAddressReason(literal, true) === 'not an address'
        ? (await dns.lookup(literal, { all: true })).map((a) => a.address)
        : [literal];
  } catch {
    throw new Error(`Email not sent: the host name ${host} does not resolve.`);
  }
  for (const a of addresses) {
    const why = blockedAddressReason(a, true);
    if (why) throw new Error(`Email not sent: ${host} is ${why}.`);
  }
}
