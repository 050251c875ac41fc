import { randomBytes } from 'node:crypto';
import { dockerCli, testEngine, tryDockerCli } from './helpers/engine';

/** A unique, test-labelled name like `berth-t-images-1a2b3c4d`. */
export const uniqueName = (feature: string) => `berth-t-${feature}-${randomBytes(4).toString('hex')}`;

/**
 * Builds a local-only image from the test image (legacy builder, no registry access) and returns
 * its id. `payloadKb` writes a file of that size in its own layer, so removing it frees real space.
 */
export function buildImage(
  tag: string,
  labels: Record<string, string> = {},
  payloadKb = 0,
  lines: string[] = [],
): string {
  const { image } = testEngine();
  const run = payloadKb ? `RUN dd if=/dev/urandom of=/payload bs=1k count=${payloadKb}\n` : '';
  const extra = lines.map((l) => `${l}\n`).join('');
  const dockerfile = `FROM ${image}\n${run}${extra}LABEL berth.nonce="${Math.random()}"\n`;
  const labelArgs = Object.entries({ 'berth.test': '1', ...labels }).flatMap(([k, v]) => ['--label', `${k}=${v}`]);
  return dockerCli(['build', '-q', '-t', tag, ...labelArgs, '-'], { input: dockerfile, timeoutMs: 120_000 }).trim();
}

/** Removes images, containers, volumes and networks a test made; already-gone ones are fine. */
export function cleanup(kind: 'image' | 'container' | 'volume' | 'network', ...names: string[]): void {
  for (const name of names) {
    const args =
      kind === 'image' ? ['rmi', '-f', name] : kind === 'container' ? ['rm', '-f', '-v', name] : [kind, 'rm', name];
    try {
      dockerCli(args);
    } catch (err) {
      if (!/No such|not found/i.test(String(err))) throw err;
    }
  }
}

export function exists(kind: 'image' | 'container' | 'volume' | 'network', name: string): boolean {
  const res = tryDockerCli([kind, 'inspect', name]);
  if (res.status === 0) return true;
  if (/No such|not found/i.test(res.stderr)) return false;
  throw new Error(`docker ${kind} inspect ${name}: ${res.stderr.trim()}`);
}

/** Splits a server-sent event body into its events. */
export function parseSse(text: string): { event: string; data: unknown }[] {
  return text
    .split('\n\n')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      return event ? { event, data: JSON.parse(data) as unknown } : null;
    })
    .filter((e): e is { event: string; data: unknown } => e !== null);
}

/**
 * An image whose HEALTHCHECK fails every second on its first try (one failure = unhealthy),
 * built once for every test file that needs one: the tag has no nonce, so a second build is skipped.
 */
export function failingHealthImage(): string {
  const tag = 'berth-t-shared-health:fail';
  if (!exists('image', tag))
    dockerCli(['build', '-q', '-t', tag, '--label', 'berth.test=1', '-'], {
      input: `FROM ${testEngine().image}\nHEALTHCHECK --interval=1s --timeout=2s --retries=1 CMD sh -c 'echo probe fails; false'\n`,
      timeoutMs: 120_000,
    });
  return tag;
}
