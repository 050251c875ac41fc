import crypto from 'node:crypto';

/**
 * The agent's handshake, shared by Berth and the agent. Both sides hold an Ed25519 key: Berth's
 * is derived from its signing key (the same on every restart, never stored apart), the agent's is
 * made on its host at enrolment and only its public half leaves it.
 *
 *   agent → hello     { nonce A, publicKey, token? }       (token only the first time)
 *   Berth → challenge { nonce S, serverKey, proof = sign_Berth(server-tag, A, S) }
 *   agent             checks serverKey against the fingerprint it pinned (from the token), and proof
 *   agent → auth      { signature = sign_agent(agent-tag, S, A) }
 *   Berth → ready     { environment }   or a close with AGENT_CLOSE.refused and the reason
 *
 * Each side signs the other's fresh nonce, so neither a recorded hello nor a recorded auth can be
 * replayed, and the agent talks to no one but the Berth whose key its token named.
 */
export const AGENT_CONNECT_PATH = '/api/agent/connect';

/** WebSocket close codes the agent reads: `refused` stops it (retrying cannot help); any other reconnects. */
export const AGENT_CLOSE = {
  /** Unknown or used token, unknown or revoked key, bad signature. */
  refused: 4003,
  /** Another connection of the same agent took over. */
  replaced: 4009,
  /** No handshake in time, or a message out of order. */
  protocol: 4002,
} as const;

export interface AgentHello {
  type: 'hello';
  nonce: string;
  /** The agent's Ed25519 public key, SPKI DER in base64. */
  publicKey: string;
  token?: string;
}
export interface AgentChallenge {
  type: 'challenge';
  nonce: string;
  serverKey: string;
  proof: string;
}
export interface AgentAuth {
  type: 'auth';
  signature: string;
}
export interface AgentReady {
  type: 'ready';
  environment: string;
}

const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Berth's agent key from 32 secret bytes (a key derived from the signing key). */
export function serverKeyFrom(seed: Uint8Array): { privateKey: crypto.KeyObject; publicKey: string } {
  const privateKey = crypto.createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(seed).subarray(0, 32)]),
    format: 'der',
    type: 'pkcs8',
  });
  return { privateKey, publicKey: publicKeyText(crypto.createPublicKey(privateKey)) };
}

export const publicKeyText = (key: crypto.KeyObject) => key.export({ type: 'spki', format: 'der' }).toString('base64');

export const publicKeyFrom = (text: string) =>
  crypto.createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });

/** What the agent pins: SHA-256 of Berth's public key, base64url. */
export const fingerprint = (publicKey: string) =>
  crypto.createHash('sha256').update(Buffer.from(publicKey, 'base64')).digest('base64url');

export const nonce = () => crypto.randomBytes(32).toString('base64url');

const payload = (tag: string, a: string, b: string) => Buffer.from(`berth-agent/${tag}\n${a}\n${b}`);

export const serverProof = (key: crypto.KeyObject, agentNonce: string, serverNonce: string) =>
  crypto.sign(null, payload('server', agentNonce, serverNonce), key).toString('base64');

export const agentSignature = (key: crypto.KeyObject, serverNonce: string, agentNonce: string) =>
  crypto.sign(null, payload('agent', serverNonce, agentNonce), key).toString('base64');

export function verifyServerProof(serverKey: string, agentNonce: string, serverNonce: string, proof: string): boolean {
  return safeVerify(serverKey, payload('server', agentNonce, serverNonce), proof);
}

export function verifyAgentSignature(
  publicKey: string,
  serverNonce: string,
  agentNonce: string,
  signature: string,
): boolean {
  return safeVerify(publicKey, payload('agent', serverNonce, agentNonce), signature);
}

function safeVerify(publicKey: string, data: Buffer, signature: string): boolean {
  try {
    const key = publicKeyFrom(publicKey);
    if (key.asymmetricKeyType !== 'ed25519') return false;
    return crypto.verify(null, data, key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/**
 * An enrolment token: `berth1.<secret>.<fingerprint of Berth's key>`. Berth keeps only the
 * secret's SHA-256; the agent keeps only the fingerprint (it pins it) once enrolled.
 */
export function makeEnrolmentToken(serverPublicKey: string): { token: string; hash: string } {
  const secret = crypto.randomBytes(32).toString('base64url');
  return { token: `berth1.${secret}.${fingerprint(serverPublicKey)}`, hash: tokenHash(secret) };
}

export function parseEnrolmentToken(token: string): { secret: string; fingerprint: string } | null {
  const m = /^berth1\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/.exec(token.trim());
  return m ? { secret: m[1]!, fingerprint: m[2]! } : null;
}

export const tokenHash = (secret: string) => crypto.createHash('sha256').update(secret).digest('hex');
