import fs from 'node:fs';
import path from 'node:path';

/** Berth's real version, from the root package.json; read by buildServices, never at import time. */
export function readBerthVersion(): string {
  const file = path.join(import.meta.dirname, '../../package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}
