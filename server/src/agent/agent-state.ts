import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { publicKeyText } from '../lib/agent-auth';

/** What an enrolled agent remembers of its Berth. */
export interface Enrolled {
  /** The fingerprint of Berth's key, pinned at enrolment (it came with the token). */
  fingerprint: string;
  environment: string;
  enrolled_at: string;
}

/**
 * The agent's state folder (0700): its Ed25519 private key (made on first start, never sent) and,
 * once enrolled, the pinned fingerprint of Berth's key. Delete the folder to enrol again.
 */
export class AgentState {
  readonly privateKey: crypto.KeyObject;
  readonly publicKey: string;

  constructor(private readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const keyFile = path.join(dir, 'agent-key.pem');
    if (!fs.existsSync(keyFile)) {
      const { privateKey } = crypto.generateKeyPairSync('ed25519');
      fs.writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    }
    this.privateKey = crypto.createPrivateKey(fs.readFileSync(keyFile));
    this.publicKey = publicKeyText(crypto.createPublicKey(this.privateKey));
  }

  private get file(): string {
    return path.join(this.dir, 'berth.json');
  }

  enrolled(): Enrolled | null {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8')) as Enrolled;
    } catch {
      return null;
    }
  }

  saveEnrolled(e: Enrolled): void {
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(e, null, 2), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }
}
