/**
 * Entry point of the updater container that Berth starts for a self-update (see self-update.ts):
 * `node self-update-main --target <container id> --image <reference>`. It uses Berth's own
 * configuration (the updater inherits Berth's environment), does the swap and exits.
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadConfig } from '../../config';
import { createEngine } from '../../docker/dockerode-engine';
import { runSelfUpdate } from './self-update-run';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { target: { type: 'string' }, image: { type: 'string' } }, strict: true });
  if (!values.target || !values.image) {
    console.error('usage: self-update-main --target <container> --image <reference>');
    return 2;
  }
  const config = loadConfig();
  const log = pino({ level: config.logLevel === 'silent' ? 'info' : config.logLevel, base: { role: 'berth-updater' } });
  const docker = createEngine(config);
  const outcome = await runSelfUpdate(docker, {
    target: values.target,
    image: values.image,
    dataDir: config.dataDir,
    log,
  });
  return outcome.result === 'updated' ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('Berth updater failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
