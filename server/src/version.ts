import fs from 'node:fs';
import path from 'node:path';

/** Berth's real version, from the root package.json. */
export const BERTH_VERSION: string = (() => {
  const file = path.join(import.meta.dirname, '../../package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
})();
