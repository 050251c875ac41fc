/** What the processes and files of the host show: where a secret must not turn up, what a stopped job left behind. */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Every readable /proc/<pid>/cmdline and environ joined (what `ps` and a curious user could read).
 * The harness's own BERTH_TEST_* variables (in the test's environment and its workers') are left out.
 */
export function processText(): string {
  const out: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    for (const f of ['cmdline', 'environ']) {
      try {
        const entries = fs.readFileSync(`/proc/${pid}/${f}`, 'latin1').split('\0');
        out.push(entries.filter((e) => !e.startsWith('BERTH_TEST_')).join(' '));
      } catch {
        // ended meanwhile, or not ours to read
      }
    }
  }
  return out.join('\n');
}

/** Samples processText() every 25 ms while `job` runs; answers the job's result and every sample. */
export async function sampleProcesses<T>(job: () => Promise<T>): Promise<{ result: T; seen: string[] }> {
  const seen: string[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      seen.push(processText());
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  try {
    return { result: await job(), seen };
  } finally {
    sampling = false;
    await sampler;
  }
}

/** Every file under `dir` (recursively) as text. */
export function treeText(dir: string): string {
  if (!fs.existsSync(dir)) return '';
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => fs.readFileSync(path.join(e.parentPath, e.name), 'latin1'))
    .join('\n');
}

/** Processes whose command line mentions `text` (to prove a stopped job left nothing behind). */
export function processesMentioning(text: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false; // the process ended while we looked
      }
    })
    .map(Number);
}
