import fs from 'node:fs';

/**
 * Writes a secret to a new file readable only by Berth's user (0600). The mode is set on the
 * open fd as well, so a permissive umask cannot widen it. An existing file is replaced.
 */
export function writePrivateFile(file: string, content: string): void {
  fs.rmSync(file, { force: true });
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    fs.fchmodSync(fd, 0o600);
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
