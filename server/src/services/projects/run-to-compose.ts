import YAML, { isMap } from 'yaml';
import { ValidationError } from '../../errors';

/** A `docker run` line is short; anything longer is not one. */
const MAX_COMMAND = 16 * 1024;

export interface ConvertedRun {
  content: string;
  /** Options of the command that have no compose equivalent (composerize lists them). */
  warnings: string[];
}

/**
 * `docker run …` → a compose file with one service, through composerize (the converter people
 * use for this; loaded on first use so an idle Berth does not carry it). Nothing is run: the
 * command is only parsed. The placeholder project `name:` it writes is dropped (Berth names the
 * project, and the compose v1 CLI does not know the key); named volumes are made when missing, as
 * docker run does; a named network must exist, as for docker run.
 */
export async function convertDockerRun(command: string): Promise<ConvertedRun> {
  const line = command.replace(/\\\r?\n/g, ' ').trim();
  const field = (message: string) => new ValidationError(message, [{ field: 'command', message }]);
  if (!line) throw field('Paste a docker run command.');
  if (line.length > MAX_COMMAND) throw field(`The command is longer than ${MAX_COMMAND / 1024} KiB.`);
  const { default: composerize } = await import('composerize');
  let yaml: string;
  try {
    yaml = composerize(line);
  } catch (err) {
    throw field(`Not a docker run command: ${err instanceof Error ? err.message : String(err)}.`);
  }
  if (yaml.includes('!!!invalid!!!')) throw field('The command names no image (docker run [options] IMAGE [COMMAND]).');
  const warnings: string[] = [];
  const body = yaml
    .split('\n')
    .filter((l) => {
      // composerize's own remarks become warnings (or go, where Berth changes the file below).
      const option = /^# (--?\S.*)$/.exec(l);
      if (option) warnings.push(`No compose equivalent for ${option[1]}; it was left out.`);
      const network = /^# named network '([^']+)' is marked as "external"/.exec(l);
      if (network) warnings.push(`Network ${network[1]} must exist before the project starts, as for docker run.`);
      return !l.startsWith('#') && !/^name: <your project name>$/.test(l);
    })
    .join('\n');
  const doc = YAML.parseDocument(body);
  // docker run makes a named volume that is missing; so does compose once it is not `external`.
  const volumes = doc.get('volumes');
  if (isMap(volumes)) for (const pair of volumes.items) if (isMap(pair.value)) pair.value.delete('external');
  return { content: doc.toString({ indent: 2 }), warnings };
}
