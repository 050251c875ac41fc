import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EngineConnection } from '../../docker/connection';

/** The compose CLI's environment for one environment, and the private folder behind it. */
export interface CliMaterial {
  env: Readonly<Record<string, string>>;
  /** Deletes the folder with the decrypted material (the scope is closing). */
  remove(): void;
}

const writePrivate = (file: string, content: string, mode = 0o600) =>
  fs.writeFileSync(file, content.endsWith('\n') ? content : `${content}\n`, { mode });

/** The real `ssh` on the CLI's PATH (the wrapper below must not find itself). */
function findSsh(pathVar: string | undefined): string {
  for (const dir of (pathVar ?? '/usr/bin:/bin').split(':')) {
    const candidate = path.join(dir, 'ssh');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not in this PATH entry; the next one may have it.
    }
  }
  return '/usr/bin/ssh';
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Writes what the compose CLI needs to reach a remote engine into a fresh 0700 folder that lives
 * as long as the environment's scope: the TLS files (DOCKER_CERT_PATH with DOCKER_TLS_VERIFY), or
 * for ssh:// an ssh config with the key and the known host key. OpenSSH reads its config from the
 * user's passwd home, not $HOME, so an `ssh` wrapper first on PATH passes `-F`; HOME points at the
 * folder too, for clients that do read it (paramiko).
 */
export function writeCliMaterial(
  base: Readonly<Record<string, string>>,
  conn: EngineConnection,
  dockerHost: string,
): CliMaterial {
  if (conn.kind === 'socket' || (conn.kind === 'tcp' && !conn.tls))
    return { env: { ...base, DOCKER_HOST: dockerHost }, remove: () => undefined };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-env-'));
  fs.chmodSync(dir, 0o700);
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    if (conn.kind === 'tcp') {
      const tls = conn.tls!;
      writePrivate(path.join(dir, 'ca.pem'), tls.ca);
      writePrivate(path.join(dir, 'cert.pem'), tls.cert);
      writePrivate(path.join(dir, 'key.pem'), tls.key);
      return { env: { ...base, DOCKER_HOST: dockerHost, DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: dir }, remove };
    }
    const sshDir = path.join(dir, '.ssh');
    const binDir = path.join(dir, 'bin');
    fs.mkdirSync(sshDir, { mode: 0o700 });
    fs.mkdirSync(binDir, { mode: 0o700 });
    writePrivate(path.join(sshDir, 'id'), conn.privateKey);
    const hostPattern = conn.port === 22 ? conn.host : `[${conn.host}]:${conn.port}`;
    writePrivate(
      path.join(sshDir, 'known_hosts'),
      conn.hostKey ? `${hostPattern} ${conn.hostKey.trim().split(/\s+/).slice(0, 2).join(' ')}` : '',
    );
    const config = [
      'Host *',
      `  IdentityFile ${path.join(sshDir, 'id')}`,
      '  IdentitiesOnly yes',
      `  UserKnownHostsFile ${path.join(sshDir, 'known_hosts')}`,
      '  GlobalKnownHostsFile /dev/null',
      '  StrictHostKeyChecking yes',
      '  BatchMode yes',
      '  PasswordAuthentication no',
      '  KbdInteractiveAuthentication no',
      '  ConnectTimeout 20',
    ];
    writePrivate(path.join(sshDir, 'config'), config.join('\n'));
    writePrivate(
      path.join(binDir, 'ssh'),
      `#!/bin/sh\nexec ${shellQuote(findSsh(base.PATH))} -F ${shellQuote(path.join(sshDir, 'config'))} "$@"\n`,
      0o700,
    );
    const env: Record<string, string> = {
      ...base,
      DOCKER_HOST: dockerHost,
      HOME: dir,
      PATH: `${binDir}:${base.PATH ?? '/usr/bin:/bin'}`,
    };
    // compose v1 talks SSH through paramiko with this set (reads HOME/.ssh); v2 and the docker CLI run `ssh`. Paramiko
    // accepts an unknown host with a warning, so it is used only when the host key is known (else `ssh` refuses).
    if (conn.hostKey) env.COMPOSE_PARAMIKO_SSH = '1';
    // Registry credentials stay where they were (HOME moved).
    if (!base.DOCKER_CONFIG && base.HOME) env.DOCKER_CONFIG = path.join(base.HOME, '.docker');
    delete env.DOCKER_TLS_VERIFY;
    delete env.DOCKER_CERT_PATH;
    return { env, remove };
  } catch (err) {
    remove();
    throw err;
  }
}
